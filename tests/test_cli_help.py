"""``radar --help`` and every subcommand's help speak the language of the messages, with a
description and an example each, argparse's own words included (issue 52, point 6)."""

from __future__ import annotations

import re

import pytest
from conftest import SEED_SITE, copy_site

from juju_radar.editors import cli

COMMANDS = [
    [],
    ["import"],
    ["new"],
    ["check"],
    ["links"],
    ["serve"],
    ["synth"],
    ["refs"],
    ["refs", "missing"],
    ["refs", "lookup"],
    ["refs", "accept"],
    ["refs", "set"],
    ["refs", "complete"],
    ["refs", "archive"],
    ["entities"],
    ["entities", "suggest"],
]
ARGPARSE_ENGLISH = ("usage:", "options:", "positional arguments", "show this help", "commands:")
HAN = re.compile("[\u4e00-\u9fff]")


def help_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        cli.main([*argv, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


def listed(help_text: str, heading: str) -> list[str]:
    """The subcommands a help lists under ``heading``."""
    section = help_text.split(heading, 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^    (\S+)", section, re.M)


def test_the_list_of_commands_is_the_parser_s(capsys):
    top = help_of(capsys, "--lang", "en")
    assert listed(top, "commands:\n") == [c[0] for c in COMMANDS if len(c) == 1]
    refs = help_of(capsys, "--lang", "en", "refs")
    assert listed(refs, "actions:\n") == [c[1] for c in COMMANDS if len(c) == 2 and c[0] == "refs"]
    entities = help_of(capsys, "--lang", "en", "entities")
    assert listed(entities, "actions:\n") == [
        c[1] for c in COMMANDS if len(c) == 2 and c[0] == "entities"
    ]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "radar")
def test_each_help_is_chinese_with_a_description_and_an_example(command, capsys):
    text = help_of(capsys, "--lang", "zh", *command)
    assert text.startswith(f"用法：radar {' '.join(command)}".rstrip())
    assert not [word for word in ARGPARSE_ENGLISH if word in text], text
    assert "显示本帮助并退出" in text and "选项：" in text
    description = text.split("\n\n")[1]
    assert HAN.search(description), f"no Chinese description: {description!r}"
    example = text.rstrip().split("\n\n")[-1].splitlines()
    assert example[0] == "示例：" and example[1].startswith(f"  radar {' '.join(command)}")
    # Every option has its help, in Chinese (the help text, not the option's name).
    for line in text.split("选项：\n", 1)[1].split("\n\n", 1)[0].splitlines():
        if line.startswith("  -") and "  " in line.strip():
            assert HAN.search(line), line


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "radar")
def test_each_help_in_english_has_a_description_and_an_example(command, capsys):
    text = help_of(capsys, "--lang", "en", *command)
    assert text.startswith("usage: radar")
    assert not HAN.search(text)
    assert text.rstrip().split("\n\n")[-1].startswith("example:\n  radar")


def test_the_configured_language_applies_to_the_help(tmp_path, monkeypatch, capsys):
    """No --lang and a locale naming no language: conf.py's setting decides."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    root = copy_site(tmp_path / "src")
    assert 'radar_messages_language = "zh"' in (SEED_SITE / "conf.py").read_text(encoding="utf-8")
    text = help_of(capsys, "--root", str(root), "check")
    assert text.startswith("用法：radar check") and "只打印错误" in text


def test_argparse_errors_speak_chinese_too(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--lang", "zh", "check", "--format", "xml"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("用法：radar check")
    assert "radar check：错误：参数 --format：无效的选项 'xml'（可选：'text', 'json'）" in err
    with pytest.raises(SystemExit):
        cli.main(["--lang", "zh", "import"])
    assert "radar import：错误：缺少以下参数：FILE" in capsys.readouterr().err
