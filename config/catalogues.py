"""The message catalogues under ``locale/``: compiling them, and extracting their ids.

Two sets of catalogues: the service's (``locale/<lang>/LC_MESSAGES/django.po``) and the
terminal client's own words (``client/locale/<lang>/LC_MESSAGES/client.po``, read by
:mod:`client.i18n`; the client is its own package and carries its own).

``python -m config.catalogues`` (``make install`` and ``make run`` call it, so does the
Dockerfile) compiles every catalogue whose ``.mo`` is missing or older, in pure Python
with polib: GNU gettext is not needed to run the site or the client. The ``.mo`` files
are build outputs and not committed.

``python -m config.catalogues update`` (``make messages``) extracts the message ids (the
project's apps with Django's ``makemessages``, the client with ``xgettext``; both need
GNU gettext) and merges them into every catalogue: new ids arrive with an empty
translation, vanished ones are dropped, and the English catalogue's translations are its
ids. docs/i18n.md has the whole workflow.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "locale"
DOMAIN = "django"
CLIENT_DIR = ROOT / "client"
CLIENT_LOCALE_DIR = CLIENT_DIR / "locale"
CLIENT_DOMAIN = "client"

# Plural-Forms headers: gettext's own values (Polish has three forms, Japanese one).
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "da": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "sv": "nplurals=2; plural=(n != 1);",
    "nb": "nplurals=2; plural=(n != 1);",
    "fi": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "pl": (
        "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
    ),
    "ja": "nplurals=1; plural=0;",
}


def catalogue(language: str, root: Path = LOCALE_DIR, domain: str = DOMAIN) -> Path:
    """Where the catalogue of ``language`` lives.

    >>> catalogue("nl").relative_to(ROOT).as_posix()
    'locale/nl/LC_MESSAGES/django.po'
    >>> client_catalogue("nl").relative_to(ROOT).as_posix()
    'client/locale/nl/LC_MESSAGES/client.po'
    """
    return root / language / "LC_MESSAGES" / f"{domain}.po"


def client_catalogue(language: str, root: Path = CLIENT_LOCALE_DIR) -> Path:
    """Where the client's catalogue of ``language`` lives."""
    return catalogue(language, root, CLIENT_DOMAIN)


def compile_all(*roots: Path) -> list[Path]:
    """Compile each catalogue under ``roots`` (default: the service's and the client's)
    whose ``.mo`` is missing or older than its ``.po``; returns the ``.mo`` files
    written. Each is written beside and then renamed, so a running server never reads
    half a file. Fuzzy entries are left out."""
    written = []
    for po in (
        po
        for root in roots or (LOCALE_DIR, CLIENT_LOCALE_DIR)
        for po in sorted(root.glob("*/LC_MESSAGES/*.po"))
    ):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        partial = mo.with_name(f".{mo.name}.partial")
        polib.pofile(str(po)).save_as_mofile(str(partial))
        os.replace(partial, mo)
        written.append(mo)
    return written


def source_apps() -> list[str]:
    """The project's directories whose texts are translated: ``config`` and every local
    app in ``INSTALLED_APPS`` (a new app's texts are extracted once it is installed)."""
    from django.conf import settings

    local = [app for app in settings.INSTALLED_APPS if (ROOT / app).is_dir()]
    return ["config", *local]


def extract(workdir: Path, languages: list[str]) -> Path:
    """Run ``makemessages`` for ``languages`` on a copy of the source apps in
    ``workdir`` (it writes beside any ``locale/`` it walks into, so never in the
    checkout itself); ``workdir/locale`` may hold catalogues to merge into. Returns that
    locale directory."""
    from django.core.management import call_command
    from django.test import override_settings

    for app in source_apps():
        shutil.copytree(
            ROOT / app, workdir / app, ignore=shutil.ignore_patterns("__pycache__", "migrations")
        )
    locale = workdir / "locale"
    locale.mkdir(exist_ok=True)
    cwd = Path.cwd()
    os.chdir(workdir)
    try:
        with override_settings(LOCALE_PATHS=[locale]):
            call_command(
                "makemessages",
                locale=languages,
                domain=DOMAIN,
                extensions=["html", "txt", "py"],
                no_obsolete=True,
                add_location="file",
                verbosity=0,
            )
    finally:
        os.chdir(cwd)
    return locale


def extract_client(workdir: Path) -> polib.POFile:
    """The message ids of the client's own words: ``xgettext`` (GNU gettext) over
    ``client/*.py``, with :mod:`client.i18n`'s markers."""
    pot = workdir / f"{CLIENT_DOMAIN}.pot"
    subprocess.run(
        [
            "xgettext",
            "--language=Python",
            "--from-code=UTF-8",
            f"--default-domain={CLIENT_DOMAIN}",
            "--keyword=_",
            "--keyword=N_",
            "--keyword=gettext",
            "--keyword=ngettext:1,2",
            "--keyword=pgettext:1c,2",
            "--add-location=file",
            "--sort-by-file",
            f"--output={pot}",
            *sorted(str(path.relative_to(ROOT)) for path in CLIENT_DIR.glob("*.py")),
        ],
        cwd=ROOT,
        check=True,
    )
    return polib.pofile(str(pot)) if pot.exists() else polib.POFile()


def update() -> list[Path]:
    """Bring every catalogue of ``settings.LANGUAGES``, the service's and the client's,
    up to date with the source: returns the catalogues written."""
    from django.conf import settings

    languages = [code for code, _name in settings.LANGUAGES]
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for language in languages:
            if catalogue(language).exists():
                catalogue(language, work / "locale").parent.mkdir(parents=True)
                shutil.copy(catalogue(language), catalogue(language, work / "locale"))
        extract(work, languages)
        for language in languages:
            po = polib.pofile(str(catalogue(language, work / "locale")))
            written.append(_save(po, language, catalogue(language)))
        ids = extract_client(work)
    for language in languages:
        target = client_catalogue(language)
        old = polib.pofile(str(target)) if target.exists() else polib.POFile()
        written.append(_save(merge(old, ids, language), language, target, "the terminal client's"))
    return written


def merge(old: polib.POFile, ids: polib.POFile, language: str) -> polib.POFile:
    """The catalogue of ``ids`` in ``language``, keeping the translations of ``old``
    whose id is still the same text of the same shape: an id gone is dropped, a new one
    (or one turned from a plain text into a plural, or back, or whose plural changed)
    arrives empty, never as a guess; each plural entry has the language's own number of
    forms."""
    forms = int(PLURAL_FORMS[language].split("nplurals=")[1][0])
    kept = {(entry.msgctxt, entry.msgid): entry for entry in old if not entry.obsolete}
    merged = polib.POFile()
    merged.metadata = dict(old.metadata)
    for ref in ids:
        entry = polib.POEntry(
            msgctxt=ref.msgctxt,
            msgid=ref.msgid,
            msgid_plural=ref.msgid_plural,
            occurrences=ref.occurrences,
            flags=list(ref.flags),
        )
        before = kept.get((ref.msgctxt, ref.msgid))
        same = before is not None and before.msgid_plural == ref.msgid_plural
        if ref.msgid_plural:
            old_forms = before.msgstr_plural if same and before else {}
            entry.msgstr_plural = {n: old_forms.get(n, "") for n in range(forms)}
        elif same and before:
            entry.msgstr = before.msgstr
        merged.append(entry)
    return merged


def _save(po: polib.POFile, language: str, target: Path, what: str = "the") -> Path:
    po.header = f"Maxi Yatzy Daily: {what} {language} message catalogue (docs/i18n.md)."
    po.metadata_is_fuzzy = False
    for churn in _CHURN:
        po.metadata.pop(churn, None)
    po.metadata["Project-Id-Version"] = "maxi-yatzy-daily"
    po.metadata["Language"] = language
    po.metadata["Plural-Forms"] = PLURAL_FORMS[language]
    po.metadata["Content-Type"] = "text/plain; charset=UTF-8"
    po.metadata.setdefault("MIME-Version", "1.0")
    po.metadata.setdefault("Content-Transfer-Encoding", "8bit")
    if language == "en":
        _english(po)
    target.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(target))
    return target


# Header fields that would change on every run or say nothing here.
_CHURN = (
    "POT-Creation-Date",
    "PO-Revision-Date",
    "Last-Translator",
    "Language-Team",
    "Report-Msgid-Bugs-To",
)


def _english(po: polib.POFile) -> None:
    """English says what the message ids say. Every entry is set from its id, so a
    fuzzy guess gettext made from a similar old message never reaches a reader."""
    for entry in po:
        if entry.msgid_plural:
            entry.msgstr_plural = {0: entry.msgid, 1: entry.msgid_plural}
        else:
            entry.msgstr = entry.msgid
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
        entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None


def main(argv: list[str]) -> int:
    if argv[1:] == ["update"]:
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        django.setup()
        for path in update():
            print(f"updated {path.relative_to(ROOT)}")
        return 0
    if argv[1:]:
        print("usage: python -m config.catalogues [update]", file=sys.stderr)
        return 2
    written = compile_all()
    if written:
        print(f"compiled {len(written)} message catalogue(s) (locale/, client/locale/)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
