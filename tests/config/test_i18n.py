"""The service in 12 languages, through HTTP (SPEC §7, Rules and Languages): the rules
pages, errors with stable codes and translated messages, the choice of the language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

import yatzy
from config.messages import ENGINE_MESSAGES
from tests.factories import make_player

LANGUAGES = [code for code, _name in settings.LANGUAGES]

# What each country's score pads call a few boxes (docs/i18n.md has the sources).
FULL_HOUSE = {
    "en": "Full house",
    "da": "Fuldt hus",
    "de": "Full House",
    "fr": "Full",
    "es": "Full",
    "it": "Full",
    "sv": "Kåk",
    "nb": "Hus",
    "fi": "Täyskäsi",
    "nl": "Full house",
    "pl": "Full",
    "ja": "フルハウス",
}
DUTCH_MAXI = {
    "three_pairs": "Drie paar",
    "five_of_a_kind": "Vijf gelijke",
    "tower": "Toren",
    "full_straight": "Volle straat",
    "chance": "Kans",
    "villa": "Villa",
}


def get(path: str, language: str | None = None, client: APIClient | None = None):
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    return (client or APIClient()).get(path, **headers)


def assert_examples_score_as_the_engine_says(body: dict, rs: yatzy.Ruleset) -> None:
    assert [box["id"] for box in body["boxes"]] == list(rs.categories)
    for box in body["boxes"]:
        points = rs.score(box["id"], box["example"]["dice"])
        assert box["example"]["points"] == points > 0, box


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", yatzy.RULESETS)
def test_every_ruleset_answers_in_every_language_with_the_engines_examples(language, name):
    response = get(f"/api/v1/rulesets/{name}/", language)
    assert response.status_code == 200
    assert response["Content-Language"] == language
    body = response.json()
    rs = yatzy.get_ruleset(name)
    assert_examples_score_as_the_engine_says(body, rs)
    assert (body["dice"], body["turns"], body["max_total"]) == (
        rs.dice_count,
        len(rs.categories),
        {"maxi": 649, "yatzy": 374, "yahtzee": 1575}[name],
    )
    assert (body["upper_bonus"]["threshold"], body["upper_bonus"]["points"]) == rs.upper_bonus
    names = {box["id"]: box["name"] for box in body["boxes"]}
    assert names["full_house"] == FULL_HOUSE[language]
    english = {
        box["id"]: box["name"] for box in get(f"/api/v1/rulesets/{name}/", "en").json()["boxes"]
    }
    if language != "en":
        # The upper boxes have a word of their own in every language; the texts too.
        assert all(names[box] != english[box] for box in rs.categories[:6])
        assert body["summary"] != get(f"/api/v1/rulesets/{name}/", "en").json()["summary"]
    assert all(box["description"] for box in body["boxes"])


@pytest.mark.django_db
def test_dutch_maxi_boxes_carry_the_names_of_the_dutch_rules():
    boxes = get("/api/v1/rulesets/maxi/", "nl").json()["boxes"]
    names = {box["id"]: box["name"] for box in boxes}
    assert {box: names[box] for box in DUTCH_MAXI} == DUTCH_MAXI


@pytest.mark.django_db
def test_the_list_has_every_ruleset_with_its_defaults():
    body = get("/api/v1/rulesets/", "sv").json()
    assert [ruleset["name"] for ruleset in body] == list(yatzy.RULESETS)
    maxi = body[0]
    options = {option["name"]: option for option in maxi["options"]}
    assert options["full_straight_points"] | {"title": "", "description": ""} == {
        "name": "full_straight_points",
        "title": "",
        "description": "",
        "kind": "choice",
        "default": 21,
        "value": 21,
        "choices": [21, 25, 30],
        "minimum": None,
        "maximum": None,
    }
    assert options["upper_bonus"]["default"] == [84, 100]
    assert options["forced_order"]["choices"] == [False, True]


@pytest.mark.django_db
def test_options_in_the_query_change_what_they_change():
    body = get("/api/v1/rulesets/maxi/?full_straight_points=30&upper_bonus=75,50").json()
    full_straight = next(box for box in body["boxes"] if box["id"] == "full_straight")
    assert full_straight["example"]["points"] == 30
    assert "30" in full_straight["description"]
    assert body["upper_bonus"]["threshold"] == 75 and body["upper_bonus"]["points"] == 50
    assert body["max_total"] == 649 - 21 + 30 - 100 + 50
    rs = yatzy.get_ruleset("maxi", full_straight_points=30, upper_bonus=(75, 50))
    assert_examples_score_as_the_engine_says(body, rs)
    options = {option["name"]: option["value"] for option in body["options"]}
    assert options["full_straight_points"] == 30 and options["upper_bonus"] == [75, 50]


@pytest.mark.django_db
def test_house_rules_show_in_the_texts_and_the_maximum():
    plain = get("/api/v1/rulesets/yatzy/").json()
    house = get("/api/v1/rulesets/yatzy/?extra_yatzy_bonus=50&forced_order=true").json()
    assert (
        house["max_total"]
        == yatzy.get_ruleset("yatzy", extra_yatzy_bonus=50, forced_order=True).max_total
    )
    assert len(house["rules"]) == len(plain["rules"]) + 1
    yatzy_box = next(box for box in house["boxes"] if box["id"] == "yatzy")
    assert "50 bonus points" in yatzy_box["description"]
    free = get("/api/v1/rulesets/yatzy/?extra_yatzy_bonus=50").json()
    assert free["max_total"] > plain["max_total"] == 374


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("maxi/?full_straight_points=22", "invalid_option"),
        ("maxi/?forced_order=yes", "invalid_option"),
        ("maxi/?upper_bonus=75", "invalid_option"),
        ("yahtzee/?bonus=3", "unknown_option"),
        ("yatzy/?full_straight_points=25", "option_not_applicable"),
        # Given twice: which value holds would be a guess (Django's reading keeps the last).
        ("maxi/?forced_order=yes&forced_order=true", "invalid_option"),
        ("maxi/?full_straight_points=25&full_straight_points=30", "invalid_option"),
    ],
)
def test_bad_options_are_400_with_the_engines_code(path, code):
    response = get(f"/api/v1/rulesets/{path}", "de")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response["Content-Language"] == "de"


@pytest.mark.django_db
def test_an_unknown_ruleset_is_404_with_the_engines_code():
    response = get("/api/v1/rulesets/kniffel/", "fr")
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_ruleset"
    assert response.json()["message"].startswith("Il n\u2019y a pas de règles kniffel")


@pytest.mark.django_db
def test_an_error_has_the_same_code_and_a_message_of_its_own_in_every_language():
    messages = {}
    for language in LANGUAGES:
        response = get("/api/v1/rulesets/maxi/?full_straight_points=22", language)
        assert response.status_code == 400
        assert response.json()["code"] == "invalid_option"
        assert response["Content-Language"] == language
        messages[language] = response.json()["message"]
        assert "full_straight_points" in messages[language] and "22" in messages[language]
    assert len(set(messages.values())) == len(LANGUAGES)
    assert messages["en"] == ("The option full_straight_points must be one of 21, 25, 30, not 22.")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "content_type", "detail"),
    [
        ('{"mode": "solo",\n "ruleset": }', "application/json", "13"),  # line 2, column 13
        ('{"mode": "solo", "turn": NaN}', "application/json", "NaN"),
        ('{"mode": "solo", "mode": "solo"}', "application/json", '"mode"'),
        (b'{"mode": "solo\xff"}', "application/json; charset=utf-8", "15"),  # the 15th byte
        ('{"mode": "solo"}', "application/json; charset=bz2_codec", "bz2_codec"),
    ],
)
def test_a_body_that_is_not_json_is_refused_in_every_language(body, content_type, detail):
    """The decoder's own diagnosis ("Expecting value: line 2 column 13 (char 30)"), and
    DRF's refusal of a charset such as ``bz2_codec``, were English whatever the language
    asked for; where the body goes wrong is kept, the code stays ``parse_error`` and
    nothing is started."""
    _, client = make_player()
    messages = {}
    for language in LANGUAGES:
        response = client.generic(
            "POST",
            "/api/v1/games/",
            body,
            content_type=content_type,
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert response.status_code == 400
        assert response.json()["code"] == "parse_error"
        assert response["Content-Language"] == language
        messages[language] = response.json()["message"]
        assert detail in messages[language], (language, messages[language])
    assert len(set(messages.values())) == len(LANGUAGES), messages
    assert "Expecting" not in "".join(messages.values())
    assert client.get("/api/v1/games/").json()["count"] == 0


@pytest.mark.django_db
def test_drf_messages_the_api_answers_are_translated_in_every_language(settings):
    """DRF's catalogues lack some of its messages in 8 of the 12 languages (Danish,
    Italian, Swedish, Norwegian, Finnish, Dutch, Polish, Japanese): a hold of 11 dice, a
    box that is not a string and the wait of a throttled request read English there."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "login": "1/minute",
        },
    }
    _, client = make_player()
    state = client.post("/api/v1/games/", {"mode": "solo", "ruleset": "yatzy"}, format="json")
    url = f"/api/v1/rounds/{state.json()['id']}/"
    bodies = {
        "roll/": {"hold": list(range(11)), "turn": 0, "roll": 0},
        "score/": {"category": 1, "turn": 0},
    }
    english = {}
    for language in LANGUAGES:
        cache.clear()  # the throttle's counts
        messages = []
        for path, body in bodies.items():
            response = client.post(url + path, body, format="json", HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 400 and response.json()["code"] == "invalid_input"
            messages.append(response.json()["message"])
        login = {"username": "nobody", "password": "wrong password"}
        anonymous = APIClient()
        anonymous.post("/api/v1/accounts/token/", login, format="json")
        throttled = anonymous.post(
            "/api/v1/accounts/token/", login, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert throttled.status_code == 429 and throttled.json()["code"] == "throttled"
        messages.append(throttled.json()["message"])
        if language == "en":
            english = dict(enumerate(messages))
            assert "Expected available in" in messages[2]
            continue
        for number, message in enumerate(messages):
            assert message != english[number], (language, message)
        assert "Expected available" not in messages[2]


@pytest.mark.django_db
def test_a_null_body_is_refused_in_every_language():
    """DRF words a body of ``null`` "No data provided" without gettext: English in
    every language."""
    _, client = make_player()
    state = client.post("/api/v1/games/", {"mode": "solo", "ruleset": "yatzy"}, format="json")
    messages = {}
    for language in LANGUAGES:
        response = client.generic(
            "POST",
            f"/api/v1/rounds/{state.json()['id']}/roll/",
            "null",
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert response.status_code == 400 and response.json()["code"] == "invalid_input"
        messages[language] = response.json()["message"]
        assert response.json()["details"] == {"non_field_errors": [messages[language]]}
    assert len(set(messages.values())) == len(LANGUAGES)
    assert client.get(f"/api/v1/rounds/{state.json()['id']}/").json()["roll"] == 0


@pytest.mark.django_db
def test_a_game_error_is_translated_and_names_the_box_as_players_do():
    _, client = make_player(language="sv")
    round_id = client.post("/api/v1/games/", {"mode": "solo", "ruleset": "yatzy"}, format="json")
    state = round_id.json()
    client.post(
        f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 0, "roll": 0}, format="json"
    )
    client.post(
        f"/api/v1/rounds/{state['id']}/score/", {"category": "chance", "turn": 0}, format="json"
    )
    client.post(
        f"/api/v1/rounds/{state['id']}/roll/", {"hold": [], "turn": 1, "roll": 0}, format="json"
    )
    response = client.post(
        f"/api/v1/rounds/{state['id']}/score/", {"category": "chance", "turn": 1}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"code": "category_used", "message": "Rutan Chans är redan ifylld."}


@pytest.mark.django_db
def test_the_profile_language_wins_over_the_header():
    _, client = make_player(language="nl")
    response = client.get("/api/v1/rulesets/maxi/", HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Language"] == "nl"
    assert "Kans" in {box["name"] for box in response.json()["boxes"]}
    missing = client.get("/api/v1/daily/2000-01-01/", HTTP_ACCEPT_LANGUAGE="de")
    assert missing.status_code == 404 and missing.json()["code"] == "no_challenge"
    assert missing.json()["message"] == "Er is geen dagelijkse uitdaging voor 2000-01-01."


@pytest.mark.django_db
def test_a_blank_profile_language_follows_the_header(client):
    user, api = make_player()
    assert user.language == ""
    assert api.get("/api/v1/accounts/me/", HTTP_ACCEPT_LANGUAGE="fi")["Content-Language"] == "fi"
    # A page or the admin, logged in with a session, follows the profile too.
    user.language = "pl"
    user.save()
    client.force_login(user)
    assert client.get("/api/v1/accounts/me/", HTTP_ACCEPT_LANGUAGE="fi")["Content-Language"] == "pl"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="fi")["Content-Language"] == "pl"


@pytest.mark.django_db
@pytest.mark.parametrize("header", [None, "tlh", "xx-YY, zz;q=0.5", "*"])
def test_an_unknown_or_missing_language_falls_back_to_english(header):
    response = get("/api/v1/rulesets/yatzy/", header)
    assert response["Content-Language"] == "en"
    assert {box["name"] for box in response.json()["boxes"]} >= {"Full house", "Chance"}


@pytest.mark.django_db
def test_a_regional_header_picks_its_language():
    assert get("/api/v1/rulesets/yatzy/", "de-AT,de;q=0.9")["Content-Language"] == "de"
    assert get("/api/v1/rulesets/yatzy/", "nn,nb;q=0.8,en;q=0.5")["Content-Language"] == "nb"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("nn", "nb"),
        ("no", "nb"),
        ("nn-NO, nn;q=0.9", "nb"),  # what yatzy-play sends for LANG=nn_NO.UTF-8
        ("no-NO", "nb"),
        ("NN-no", "nb"),
        ("nn, de;q=0.5", "nb"),
        ("de, nn;q=0.5", "de"),
        ("nno", "en"),
    ],
)
def test_nynorsk_and_norwegian_read_bokmal(header, language):
    """docs/i18n.md: ``nn`` falls back to ``nb``; Django matched neither ``nn`` nor the
    macrolanguage ``no`` to it, so they read English."""
    response = get("/api/v1/no/such/path/", header)
    assert response["Content-Language"] == language
    if language == "nb":
        assert response.json()["message"] == "Ikke funnet."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("de;q=0", "en"),
        ("de;q=0.000", "en"),
        ("fr;q=0, de;q=0.5", "de"),
        ("de;q=0, *", "en"),
        ("ja, de;q=0", "ja"),
        ("de;q=0.001", "de"),
    ],
)
def test_a_language_weighted_zero_is_refused_not_chosen(header, language):
    """RFC 9110 §12.4.2: a weight of 0 means "not acceptable" (as config.negotiation
    holds for Accept); Django took ``de;q=0`` as asking for German."""
    assert get("/api/v1/no/such/path/", header)["Content-Language"] == language


@pytest.mark.django_db
def test_every_answer_carries_content_language_even_refusals(settings):
    assert get("/api/v1/no/such/path/", "it")["Content-Language"] == "it"
    unauthenticated = get("/api/v1/daily/", "es")
    assert unauthenticated.status_code == 401
    assert unauthenticated["Content-Language"] == "es"
    assert unauthenticated.json()["message"] != get("/api/v1/daily/", "en").json()["message"]
    too_large = APIClient().generic(
        "POST",
        "/api/v1/accounts/register/",
        "x" * (settings.API_MAX_BODY_BYTES + 1),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert too_large.status_code == 413 and too_large["Content-Language"] == "ja"
    assert "バイト" in too_large.json()["message"]


@pytest.mark.django_db
def test_an_unknown_token_is_refused_in_the_header_language():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get("/api/v1/daily/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 401
    assert response["Content-Language"] == "de"
    assert response.json()["message"] == "Ungültiges Token."


@pytest.mark.django_db
def test_validation_messages_come_in_the_players_language():
    _, client = make_player(language="fr")
    response = client.post("/api/v1/games/", {"mode": "chess"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_input"
    assert response.json()["message"].startswith("mode: ")
    assert "chess" in response.json()["message"]
    english = make_player(language="en")[1].post("/api/v1/games/", {"mode": "chess"}, format="json")
    assert response.json()["message"] != english.json()["message"]


@pytest.mark.django_db
def test_me_lists_the_twelve_languages_and_blank_follows_the_browser():
    _, client = make_player(language="da")
    body = client.get("/api/v1/accounts/me/").json()
    assert [choice["code"] for choice in body["languages"]] == LANGUAGES
    assert len(body["languages"]) == 12
    assert {"code": "nl", "name": "Nederlands"} in body["languages"]
    response = client.patch("/api/v1/accounts/me/", {"language": ""}, format="json")
    assert response.status_code == 200 and response.json()["language"] == ""
    assert client.get("/api/v1/accounts/me/", HTTP_ACCEPT_LANGUAGE="it")["Content-Language"] == "it"
    refused = client.patch("/api/v1/accounts/me/", {"language": "tlh"}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_input"


@pytest.mark.django_db
def test_board_and_theme_names_are_translated():
    _, client = make_player(language="sv")
    board = client.get("/api/v1/leaderboards/streaks/").json()
    assert board["name"] == "Flest dagar i rad"
    daily = client.get("/api/v1/daily/").json()
    assert daily["theme_name"] in {"Klassisk", "Jul"}


def test_every_engine_error_code_has_a_translated_message():
    def codes(cls: type[yatzy.YatzyError]) -> set[str]:
        return {cls.code}.union(*(codes(sub) for sub in cls.__subclasses__()))

    assert codes(yatzy.YatzyError) <= set(ENGINE_MESSAGES)


def _engine_errors() -> list[yatzy.YatzyError]:
    """One error of each kind a player can cause, raised by the engine itself."""
    errors: list[yatzy.YatzyError] = []
    attempts = [
        lambda: yatzy.get_ruleset("kniffel"),
        lambda: yatzy.get_ruleset("maxi", bonus=1),
        lambda: yatzy.get_ruleset("yatzy", full_straight_points=25),
        lambda: yatzy.get_ruleset("maxi", forced_order="yes"),
        lambda: yatzy.get_ruleset("maxi", extra_yatzy_bonus=-1),
        lambda: yatzy.get_ruleset("maxi", full_straight_points=22),
        lambda: yatzy.get_ruleset("maxi", upper_bonus=[1]),
        lambda: yatzy.get_ruleset("maxi").score("chance", [1, 2]),
        lambda: yatzy.Game(yatzy.get_ruleset("maxi"), b"short"),
        lambda: yatzy.Game(yatzy.get_ruleset("maxi"), bytes(32)).score("chance"),
        lambda: yatzy.Game(yatzy.get_ruleset("maxi"), bytes(32)).roll(hold=[0]),
        lambda: yatzy.Game(yatzy.get_ruleset("maxi"), bytes(32)).score("yahtzee"),
        lambda: yatzy.Game.from_snapshot({}),
    ]
    for attempt in attempts:
        with pytest.raises(yatzy.YatzyError) as raised:
            attempt()
        errors.append(raised.value)
    return errors


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_error_reads_in_every_language(language):
    from django.utils import translation

    from config.messages import engine_message

    with translation.override(language):
        generic = str(ENGINE_MESSAGES["yatzy_error"])
        for error in _engine_errors():
            message = engine_message(error)
            assert message and message != generic, (error.code, error.params)
            if language != "en":
                with translation.override("en"):
                    assert message != engine_message(error), error.code
