"""The archive survives new issues: import two exports into a copy of the repository,
then its content checks pass there (``make check-content``'s three steps).

That the suite still passes as the archive grows needs no copy: no test reads the live
archive, which every test is watched for (tests/guard/live_content_guard.py).

The exports are written here, not taken from tests/fixtures: they stand for whatever
editors publish next.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.live_content]

NEW_EXPORTS = {
    "2026-11-02.txt": """智能体学会了读合同，治理规则还在追赶

Juju Radar · 2026.11.02

约 400 字 · 阅读约 2 分钟

本期四条：一个会读合同的 Agent，一份训练数据治理的草案，一篇 arXiv 上的模型评测方法，以及一个蛋白质设计工具。

🤝 读合同的 Agent 在真实律所里跑了三个月

Agent / 法律 · 8.5/10｜建议深挖

一家律所把合同审阅 Agent 接入了日常流程，三个月里它处理了四千多份合同。作者公开了失败案例的分类。

最常见的失败不是看错条款，而是漏掉附件里的补充约定。

案例报告 · 失败分类表

📜 训练数据治理草案征求意见

治理 / 数据 · 7/10｜持续观察

一份关于训练数据来源披露的治理草案开始征求意见，要求模型提供者说明数据的主要来源与授权方式。

草案对开源模型的义务写得比较模糊，征求意见稿里留了三个待定问题。

征求意见稿

🧮 模型评测的新方法：只看难题

模型训练 / 评测 · 8/10｜建议阅读原文

这篇 arXiv 论文提出只用模型答错率最高的一成题目来比较模型，认为这样更能区分能力接近的模型。

作者也承认，难题集合会随着模型进步不断变化。

论文 · 代码

🧬 蛋白质设计工具开放试用

AI4Science / 蛋白质 · 7.5/10｜持续观察

一个蛋白质设计工具开放了网页试用，输入目标结构即可得到候选序列。

目前每天的试用次数有限。

项目主页

今天的主线

Agent 走进真实业务之后，治理和评测都得跟上。
""",
    "2026-11-03.txt": """一个下午训完的模型，和一场关于开源的争论

Juju Radar · 2026.11.03

约 300 字 · 阅读约 1 分钟

本期三条，都和“训练”有关：更快、更省，还有谁来为训练数据负责。

⚡ 一个下午训完的语言模型

模型训练 / 效率 · 9/10｜建议深挖

研究者用八张显卡在一个下午训完了一个小语言模型，并公开了全部训练脚本。

它在常识问答上的成绩接近同规模的早期模型。

训练脚本 · 论文

🏛️ 开源模型的责任边界之争

治理 / 开源 · 6.5/10｜持续观察

几家机构就开源模型的责任边界发表了联合声明，主张责任应落在部署者而非发布者。

反对者认为这会让高风险能力的发布失去约束。

联合声明

🧱 用文字生成可编辑的 3D 场景

3D / 场景 · 7/10｜建议阅读原文

一个新系统可以根据一段文字生成可编辑的 3D 场景，物体之间的摆放关系可以再用文字调整。

生成速度还比较慢，一个场景需要几分钟。

项目主页 · 演示视频

今天的主线

训练越来越便宜，责任却没有变轻。
""",
}


def copy_repository(dest: Path) -> Path:
    """The repository as a fresh clone has it: the site, the package and its tests."""
    ignored = {".git", ".venv", "_build", ".pytest_cache", ".hypothesis"}
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(*ignored, "*.egg-info", "*.mo"))
    return dest


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=1200)


def test_the_content_checks_pass_after_two_new_issues(tmp_path):
    repo = copy_repository(tmp_path / "repo")
    exports = tmp_path / "exports"
    exports.mkdir()
    for name, text in NEW_EXPORTS.items():
        (exports / name).write_text(text, encoding="utf-8")
    radar = [sys.executable, "-m", "juju_radar"]

    imported = run([*radar, "import", *sorted(map(str, exports.iterdir()))], repo)
    assert imported.returncode == 0, imported.stderr
    assert "2 imported, 0 skipped, 0 failed" in imported.stderr
    assert (repo / "issues/2026/2026-11-03.md").is_file()

    checked = run([*radar, "check"], repo)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    built = run([sys.executable, "-m", "juju_radar.build.staged", "-j", "auto"], repo)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "2026-11-03" in (repo / "_build/html/issues/index.html").read_text(encoding="utf-8")
    links = run([*radar, "links", "_build/html"], repo)
    assert links.returncode == 0, links.stdout + links.stderr
