"""The site's segmentation of Chinese: jieba's words, every character kept, and the
editors' words taken whole without changing the default segmenter."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from juju_radar.model.segmentation import unbreakable_words, words


def test_chinese_is_cut_into_dictionary_words() -> None:
    assert words("把3D场景拆成物体") == ["把", "3D", "场景", "拆成", "物体"]


def test_an_extra_word_is_taken_whole_only_where_it_is_given() -> None:
    assert words("英矽智能公司", extra_words=["英矽智能"]) == ["英矽智能", "公司"]
    assert words("英矽智能公司") == ["英矽", "智能", "公司"]


@given(st.text(alphabet=st.sampled_from("英矽智能公司模型 Qwen3-8B，。“”《》τ\n"), max_size=40))
def test_every_character_is_kept(text: str) -> None:
    assert "".join(words(text)) == text


def test_a_heading_keeps_its_chinese_words_whole_and_leaves_the_rest() -> None:
    assert unbreakable_words("把3D场景拆成物体") == [
        ("把3D", False),
        ("场景", True),
        ("拆成", True),
        ("物体", True),
    ]


@given(st.text(alphabet=st.sampled_from("智能客服模型评测 Qwen3-8B，。“”τ"), max_size=40))
def test_the_runs_of_a_heading_keep_every_character(text: str) -> None:
    runs = unbreakable_words(text)
    assert "".join(run for run, _ in runs) == text
    assert all(len(run) > 1 for run, whole in runs if whole)


def test_the_editors_commands_load_the_segmenter_only_to_cut_text():
    """rjieba costs a third of a second to load: ``radar check`` and ``radar import``
    start without it (BENCHMARKS.md, "Side by side (issue 58)")."""
    code = (
        "import sys\n"
        "import juju_radar.editors.check_run, juju_radar.editors.import_run\n"
        "assert 'rjieba' not in sys.modules, 'loaded at start'\n"
        "from juju_radar.model.segmentation import words\n"
        "assert ''.join(words('人工智能周报')) == '人工智能周报'\n"
        "assert 'rjieba' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
