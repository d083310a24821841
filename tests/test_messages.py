"""The message catalogue and its call sites agree: every key used exists, each call site passes exactly the fields
its message names, and no key is left unused.

The check is static: it walks the AST of every module of ``judge/`` for the calls that take a key
(``messages.say``, the judge's exceptions, the helpers that hand a key on to ``say``) and the templates for
``say(...)``. A key passed as a string is checked with its fields; one built by an f-string
(``f"export_done_{platform}"``) stands for every key it can match; one chosen at run time (a table's entry, a
conditional) counts as used where its string is written.
"""

from __future__ import annotations

import re
import string

from judge.judging.limits import CaseLimits
from judge.judging.session import ending_fields
from judge.judging.verdict import ENDINGS, OOM_KILLED
from judge.messages import CATALOGUE, say_in, translations
from judge.worker.runner import Outcome
from tests.support.message_sites import code_sites, mentioned, placeholders, template_sites

SITES = code_sites() + template_sites()


def test_the_check_finds_the_call_sites():
    assert len(SITES) > 300 and any(s.pattern for s in SITES) and any(s.where.endswith(".j2") for s in SITES)


def test_every_key_used_exists():
    assert [(s.where, s.key) for s in SITES if not s.keys() or any(k not in CATALOGUE for k in s.keys())] == []


def test_every_call_site_passes_the_fields_its_message_names():
    wrong = []
    for site in SITES:
        for key in site.keys():
            expected = placeholders(key)
            if site.fields - expected or not site.open_ended and site.fields != expected:
                wrong.append((site.where, key, sorted(site.fields), sorted(expected)))
    assert wrong == []


def test_the_endings_messages_name_only_fields_an_ending_has():
    fields = set(ending_fields(Outcome(), CaseLimits(1.0, 1 << 20)))
    keys = [OOM_KILLED] + [k for rule in ENDINGS.values() for k in (rule.message, rule.at_import)]
    assert [(k, sorted(placeholders(k) - fields)) for k in keys if placeholders(k) - fields] == []


def test_no_key_is_unused():
    used = {k for s in SITES for k in s.keys()} | mentioned()
    assert sorted(set(CATALOGUE) - used) == []


def test_every_translation_is_of_a_key_with_the_same_fields():
    zh = translations("zh")
    assert len(zh) > 40
    assert [k for k in zh if k not in CATALOGUE] == []
    wrong = [(k, text) for k, text in zh.items() if k in CATALOGUE and frozenset(
        re.split(r"[.\[]", n)[0] for _, n, _, _ in string.Formatter().parse(text) if n is not None) != placeholders(k)]
    assert wrong == []


def test_a_key_is_said_in_the_language_asked_and_in_english_without_a_translation():
    assert say_in("zh", "difficulty_easy") == "简单" and say_in("en", "difficulty_easy") == "easy"
    assert say_in("zh", "doctor_devices") == CATALOGUE["doctor_devices"]  # an author's tool, not translated: English
    assert say_in("fr", "status_solved") == "solved"
