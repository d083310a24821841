"""Each wing registers its own commands, beside their handlers; ``judge.cli`` only puts them together."""

from __future__ import annotations

import argparse

from judge import cli


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every command (``export gradescope``: each of its platforms) and its parser."""
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                inner = _commands(child)
                found.update({f"{name} {k}": v for k, v in inner.items()} if inner else {name: child})
    return found


def _registered_by(wing) -> dict[str, argparse.ArgumentParser]:
    top = argparse.ArgumentParser()
    wing.add_commands(top.add_subparsers())
    return _commands(top)


def test_every_command_is_run_by_a_handler_of_the_wing_that_registers_it():
    seen: list[str] = []
    for wing in cli.WINGS:
        registered = _registered_by(wing)
        assert registered, wing.__name__
        assert {name: p.get_default("handler").__module__ for name, p in registered.items()} == {
            name: wing.__name__ for name in registered}
        seen += registered
    assert sorted(seen) == sorted(_commands(cli.parser())) and len(seen) == len(set(seen))


def test_the_command_line_defines_no_command_of_its_own():
    assert not [name for name in vars(cli) if name.startswith("cmd_")]
