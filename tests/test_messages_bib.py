"""The .bib check and ``radar refs`` speak Chinese when asked (issue 31): the problems
``radar check`` finds in references.bib, the refusals, notes, prompts and summaries of
``radar refs``, and the reasons a lookup gives, with the codes, files and lines kept."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import copy_site
from fake_services import FAKES_HOST, Reply, closed_port, fake_services

from juju_radar.bib.check import check_bib_text
from juju_radar.bib.edit import EditError, find_entry, set_fields
from juju_radar.bib.size_limits import BibLimits, read_bib_limits
from juju_radar.editors import cli
from juju_radar.editors.archive_sources import ArchiveError, entries_to_archive
from juju_radar.editors.lookup.candidates import Candidate, EntryFacts, rank
from juju_radar.model.messages import use_language

BIB = "references.bib"


def radar(root: Path, *args: str) -> int:
    return cli.main(["--lang", "zh", "--root", str(root), *args])


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "src")


def with_entries(root: Path, entries: str) -> int:
    """Append ``entries`` to the site's references.bib; the line they start on."""
    bib = root / BIB
    text = bib.read_text(encoding="utf-8")
    bib.write_text(text + entries, encoding="utf-8")
    return text.count("\n") + 1


def test_radar_check_reports_the_bib_problems_in_chinese(site, capsys):
    first = with_entries(
        site,
        "@misc{loopa, title = {A}, url = {https://a.example}, crossref = {loopb}}\n"
        "@misc{loopb, title = {B}, url = {https://b.example}, crossref = {loopa}}\n"
        "@misc{notitle, url = {javascript:alert(1)}}\n",
    )
    assert radar(site, "check") == 1
    out = capsys.readouterr().out
    assert f"{BIB}:{first}: 错误: crossref 形成循环：loopa → loopb → loopa [crossref-loop]" in out
    assert f"{BIB}:{first + 2}: 错误: 条目“notitle”没有标题 [missing-title]" in out
    assert (
        f"{BIB}:{first + 2}: 错误: 条目“notitle”的 url 不是 http(s) 地址："
        "'javascript:alert(1)' [unsafe-url]"
    ) in out


def test_each_kind_of_bib_problem_has_its_chinese_message():
    use_language("zh")
    text = (
        "@misc{a, title = {50% off}, url = {https://a.example}}\n"
        "@misc{b, title = {τ^τ_x}, url = {https://b.example}, title = {again}}\n"
        "@misc{c, title = {T}}\n"
        "@misc{d, title = {T}, url = {https://d.example}, note = {a claim\\footnote}}\n"
        "@misc{e, title = {T}, url = {https://e.example}, crossref = {nowhere}}\n"
        "@misc{A, title = {C}, url = {https://c.example}}\n"
        "@misc{f, title = {unbalanced, url = {https://f.example}}\n"
    )
    messages = {problem.code: problem.format() for problem in check_bib_text(text, BIB)}
    assert messages["unescaped-percent"] == (
        f"{BIB}:1: 错误: 条目“a”的字段“title”中有未转义的“%”：pybtex 会丢掉该字段的"
        "其余部分；请写作“\\%” [unescaped-percent]"
    )
    assert (
        "请将“^”写作“\\textasciicircum{}”、“_”写作“\\_” [latex-special]"
        in messages["latex-special"]
    )
    assert messages["bib-syntax"].endswith(
        "条目“b”有第二个“title”字段；pybtex 会忽略它 [bib-syntax]"
    )
    assert messages["duplicate-key"] == (
        f"{BIB}:6: 错误: 条目键“A”已在第 1 行使用（键不区分大小写）；pybtex 读到这里便不再读取"
        "后面的条目 [duplicate-key]"
    )
    assert messages["missing-identifier"] == (
        f"{BIB}:3: 提示: 条目“c”没有 DOI/URL/arXiv 编号/ISBN：须由编辑补全 [missing-identifier]"
    )
    assert "条目“d”的字段“note”含有构建无法转成文本的 LaTeX（\\footnote；" in messages["bad-latex"]
    assert "请改写为纯文本（网址写作 \\url{...}） [bad-latex]" in messages["bad-latex"]
    assert "条目“e”：crossref 'nowhere' 在本文件中没有对应的条目" in messages["crossref-missing"]
    assert messages["unbalanced-braces"].startswith(
        f"{BIB}:7: 错误: 条目“f”的花括号不配对：缺少或多出的“{{”或“}}”"
    )


def test_the_size_limits_speak_chinese():
    use_language("zh")
    assert read_bib_limits(0, 10) == "radar_bib_max_entries 须为不小于 1 的整数，而不是 0"
    [problem] = check_bib_text(
        "@misc{a, title = {T}, url = {https://a.example}}\n" * 3,
        BIB,
        limits=BibLimits(2, 100),
    )
    assert problem.format() == (
        f"{BIB}:3: 错误: 条目超过 2 条（conf.py 中的 radar_bib_max_entries）：这是超出上限的"
        "第一个条目，文件不再往下读取 [too-many-entries]"
    )


def test_editing_refusals_speak_chinese():
    use_language("zh")
    with pytest.raises(EditError, match="参考文献中没有条目“nokey”"):
        find_entry("@misc{k, title = {T}}\n", "nokey")
    with pytest.raises(EditError, match="条目“k”写了 2 次：请先修正"):
        find_entry("@misc{k, title = {T}}\n@misc{K, title = {U}}\n", "k")
    with pytest.raises(ArchiveError, match="条目“k”没有可存档的 http\\(s\\) url"):
        entries_to_archive("@misc{k, title = {T}}\n", ["k"])


def test_refs_missing_and_set_speak_chinese(site, capsys):
    assert radar(site, "refs", "missing") == 0
    out, err = capsys.readouterr()
    assert "references.bib:25: worldsculpt2026paper: WorldSculpt 论文\n    引用处：issues/" in out
    assert "（worldsculpt-object-scenes）\n" in out
    assert err.strip() == "8 个条目缺少 DOI、arXiv 编号、URL 或 ISBN"
    bib = (site / BIB).read_bytes()
    assert radar(site, "refs", "set", "rise2026paper", "--doi", "not-a-doi") == 2
    assert "radar refs: 错误: “not-a-doi”不是 DOI（10.NNNN/…）" in capsys.readouterr().err
    assert radar(site, "refs", "set", "nosuchkey", "--url", "https://example.org/") == 1
    assert "radar refs: 错误: 参考文献中没有条目“nosuchkey”" in capsys.readouterr().err
    assert radar(site, "refs", "accept", "rise2026paper", "1") == 1
    assert "没有保存的“rise2026paper”查询结果：请先运行 `radar refs lookup rise2026paper`" in (
        capsys.readouterr().err
    )
    assert radar(site, "refs", "archive") == 2
    assert "radar refs: 错误: 请指明要存档的条目，或使用 --all" in capsys.readouterr().err
    assert (site / BIB).read_bytes() == bib
    assert radar(site, "refs", "set", "rise2026paper", "--url", "https://example.org/rise") == 0
    out = capsys.readouterr().out
    assert "rise2026paper：写入 references.bib：\n" in out
    assert "references.bib：条目“rise2026paper”已更新" in out


@contextmanager
def worldsculpt_services(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Crossref and arXiv faked on 127.0.0.1, each knowing the WorldSculpt paper."""
    with fake_services() as services:
        for name, value in services.environment().items():
            monkeypatch.setenv(name, value)
        services.routes = {
            "/crossref/works": Reply(fixture="crossref-worldsculpt.json"),
            "/arxiv/api/query": Reply(fixture="arxiv-worldsculpt.atom"),
        }
        yield


def test_a_lookup_shows_its_candidates_and_asks_in_chinese(site, capsys, monkeypatch):
    with worldsculpt_services(monkeypatch):
        assert radar(site, "refs", "lookup", "worldsculpt2026paper") == 0
        out = capsys.readouterr().out
        assert "   标题：      WorldSculpt: Object-Level" in out
        assert "   标识符：    DOI 10.5555/worldsculpt.2026; arXiv 2609.01234" in out
        assert "   理由：      标题含条目 " in out
        assert "候选 1 没有与条目相同的标识符，题名只共有 1 个词：须至少共有 3 个" in out
        english = "WorldSculpt: Object-Level Multi-View 3D Scene Generation"
        bib = site / BIB
        bib.write_text(
            set_fields(bib.read_text(encoding="utf-8"), "worldsculpt2026paper", {"title": english}),
            encoding="utf-8",
        )
        assert radar(site, "refs", "lookup", "worldsculpt2026paper") == 0
        out = capsys.readouterr().out
        assert "最佳匹配：候选 1 得分 " in out
        assert "；运行 `radar refs accept worldsculpt2026paper 1` 即可写入" in out

        prompts: list[str] = []
        monkeypatch.setattr("builtins.input", lambda prompt: prompts.append(prompt) or "否")
        assert radar(site, "refs", "accept", "worldsculpt2026paper", "1") == 1
        assert prompts == ["写入这些字段吗？[y/N] "]
        assert "未写入任何内容" in capsys.readouterr().err
        monkeypatch.setattr("builtins.input", lambda prompt: "是")
        assert radar(site, "refs", "accept", "worldsculpt2026paper", "1") == 0
        out = capsys.readouterr().out
        assert "worldsculpt2026paper：@article，写入 references.bib：\n" in out


def test_refs_complete_asks_and_sums_up_in_chinese(site, capsys, monkeypatch):
    with worldsculpt_services(monkeypatch):
        monkeypatch.setattr("juju_radar.editors.lookup.client.ARXIV_INTERVAL", 0.0)
        monkeypatch.setattr("sys.stdin", io.StringIO("好的\n跳过\n退出\n"))
        assert radar(site, "refs", "complete", "worldsculpt2026paper", "rise2026paper") == 0
        out, err = capsys.readouterr()
    assert "1-2 接受，s 跳过，q 退出，或输入 DOI、arXiv 编号或 URL：" in out
    assert "无法识别的回答：“好的”" in out
    assert err.strip().endswith(
        "radar refs complete: 接受 0 条，手动填写 0 条，跳过 1 条，失败 0 条，剩余 1 条"
    )


def test_a_service_that_cannot_be_reached_is_reported_in_chinese(site, capsys, monkeypatch):
    monkeypatch.setenv("RADAR_CROSSREF_URL", f"http://127.0.0.1:{closed_port()}/crossref")
    monkeypatch.setenv("RADAR_HTTP_RETRIES", "0")
    monkeypatch.setenv("RADAR_TRUSTED_HOSTS", FAKES_HOST)  # a refused port, not the rule
    assert radar(site, "refs", "lookup", "spc2026release") == 1
    err = capsys.readouterr().err
    assert "radar refs: 错误: 查询“spc2026release”失败：无法连接 Crossref（http://127.0.0.1:" in err
    assert err.strip().endswith("；未写入任何内容")


def test_a_capture_that_fails_keeps_its_line_and_code(site, capsys, monkeypatch):
    monkeypatch.setenv("RADAR_ARCHIVE_URL", f"http://127.0.0.1:{closed_port()}")
    monkeypatch.setenv("RADAR_TRUSTED_HOSTS", FAKES_HOST)  # a refused port, not the rule
    assert radar(site, "refs", "set", "rise2026paper", "--url", "https://example.org/rise") == 0
    capsys.readouterr()
    assert radar(site, "refs", "archive", "rise2026paper") == 1
    err = capsys.readouterr().err
    line = next(line for line in err.splitlines() if "[archive-failed]" in line)
    assert line.startswith(f"{BIB}:")
    assert ": 错误: rise2026paper: 无法连接互联网档案馆（http://127.0.0.1:" in line
    assert err.strip().endswith("已存档 0 个，失败 1 个")


def test_the_reasons_of_a_ranking_are_in_chinese():
    use_language("zh")
    facts = EntryFacts(key="k", title="Sculpting Worlds Again", year="2020", authors=("Lin Zhou",))
    found = [
        Candidate("Crossref", "r1", "Sculpting Worlds Again", ("Zhou, Lin",), "2019"),
        Candidate("Crossref", "r2", "Other Things", ("Chen, Mei",), "2020"),
    ]
    ranking = rank(facts, found)
    assert ranking.candidates[0].reason == (
        "标题含条目 3 个词中的 3 个（again, sculpting, worlds）；年份 2019，条目写的是 2020；"
        "作者 zhou 与条目相同"
    )
    assert ranking.candidates[1].reason.endswith("与条目没有共同作者")
    assert ranking.why == "候选 1 得分 0.80"
    assert rank(facts, []).why == "没有找到候选"
