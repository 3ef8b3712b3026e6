"""yatzy-play: the terminal client of Maxi Yatzy Daily.

A thin layer over the public REST API (:mod:`client.api`): the commands
(:mod:`client.commands`), the interactive round (:mod:`client.play`), what the terminal
shows (:mod:`client.render`), the fairness check (:mod:`client.verify`) and what is kept
on the player's machine (:mod:`client.storage`). Rules texts and box names come from the
server (``GET rulesets/``), in the player's language. It imports the rules engine
(:mod:`yatzy`, for ``verify``) and nothing of the server.
"""

from importlib import metadata

try:
    __version__ = metadata.version("maxi-yatzy-daily")
except metadata.PackageNotFoundError:  # run from a source tree that is not installed
    __version__ = "0.0.0"
