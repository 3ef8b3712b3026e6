"""The web pages (SPEC §10), one module per area: today's daily (``home``), playing and
reviewing a round (``play``), the boards, advent and players (``boards``), accounts and
settings (``accounts``), new games, the games list and the rules (``games``), friend
challenges (``friends``) and parties (``parties``).

Each page reads its input with a form, makes one call to the selector or service that
owns what it shows (the same ones the API calls), hands the result to its presenter
(``web.presenters``) and renders; forms post and redirect. A service's refusal is shown
as its message: an error page for a page that cannot be shown, a message on the next
page for an action (``web.helpers``)."""
