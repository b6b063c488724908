"""Hostile and harmless pages for the built-page check (issue 51): one fragment each in a
page the site would write. The check's tests refuse or pass them; the browser test holds
the check's verdict to the DOM Chromium builds of each."""

from __future__ import annotations

from juju_radar.sphinx_ext.csp import PagePolicy

EVIL = "http://evil.test"
REFRESH = f"0;url={EVIL}/"
POLICY = PagePolicy.for_code([], [], ["search.html"])
PAGE = (
    "<!DOCTYPE html>\n<html lang=zh-CN><head><meta charset=utf-8>"
    f"{POLICY.meta_tag}<title>页面</title></head>"
    "<body><main><p>前文</p>{fragment}<p>后文</p></main></body></html>"
)

# The bypasses of the regular-expression check the issue reports, then the families it
# holds back, then regression cases of this change; each refused.
HOSTILE = [
    # a tag behind a comment; U+00A0 is not HTML white space
    f'<!--<a title="--><meta http-equiv=refresh content={REFRESH}>">',
    f'<meta x=\u00a0" http-equiv=refresh content={REFRESH}">',
    # comments, bogus comments, processing instructions, "--!>"
    f"<!-- x --!><meta http-equiv=refresh content={REFRESH}>",
    f"<!x><base href={EVIL}/>",
    "</ x><script>document.title='ran'</script>",
    f"<?x><form action={EVIL}/><button>去</button></form>",
    "<!--><base href=//evil.test/>",
    "<!---><meta http-equiv=refresh content=0>",
    # attribute break-outs, entity-encoded and spaced schemes
    '<a title="x" href="jav&#x09;ascript:alert(1)">链接</a>',
    '<a href="&#106;avascript:alert(1)">链接</a>',
    '<a href=" javascript:alert(1)">链接</a>',
    '<a href="java&#10;script:alert(1)">链接</a>',
    '<img alt="a"onerror=alert(1) src=_static/a.png>',
    '<p title="x"/onclick=alert(1)>段</p>',
    '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    '<svg><animate attributeName=href to="javascript:alert(1)"/></svg>',
    # forms, bases, scripts, styles, frames, plugins
    f'<form action=search.html><button formaction="{EVIL}/">去</button></form>',
    '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
    f"<object data={EVIL}/x></object>",
    f"<embed src={EVIL}/x>",
    '<meta http-equiv="Refresh" content="0">',
    f'<meta http-equiv="content-security-policy" content="script-src {EVIL}">',
    "<style>@import url(//evil.test/x.css);</style>",
    f"<link rel=stylesheet href={EVIL}/x.css>",
    f'<div style="background:url({EVIL}/t.png)">块</div>',
    "<svg><style>*{color:red}</style></svg>",
    "<svg><script>alert(1)</script></svg>",
    f"<table><form action={EVIL}/><tr><td>x</td></tr></table>",
    f'<a href="https://example.org/" ping="{EVIL}/">链接</a>',
    # <noscript>: text where scripts run, markup where they do not
    '<noscript><p title="</noscript><script>alert(1)</script>">x</p></noscript>',
    f"<noscript><!--</noscript><textarea>--><meta http-equiv=refresh content={REFRESH}></textarea>",
    f'<noscript><!--</noscript><p title="--><meta http-equiv=refresh content={REFRESH}>">'
    "</p></noscript>",
    # a shadow root a parser attaches without any script
    "<div><template shadowrootmode=open><style>*{color:red}</style></template></div>",
    "<textarea><!--</textarea><script>alert(1)</script>-->",
]
# Text that looks hostile and is not: passed, and nothing in either DOM.
BENIGN = [
    "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
    "<!-- <script>alert(1)</script> <meta http-equiv=refresh content=0> -->",
    f'<p title="<meta http-equiv=refresh content={REFRESH}>">段</p>',
    '<a href="https://example.org/">链接</a>',
    "<?xml version='1.0'?><p>段</p>",
    "<p class=x\u00a0onclick=alert(1)>段</p>",
    "<!--x--!><p>段</p>",
    "<!-- a -- b --!-><style>*{color:red}</style>-->",  # "--!-" does not end it
]
# Harmless to a browser, and refused all the same: the one URL rule (model/urls.py) reads
# a scheme with blanks and format characters dropped, stricter than a browser, which reads
# ``java\u00a0script:`` as a relative address. Refused, and nothing in Chromium's DOM.
STRICTER = [
    '<a href="java\u00a0script:alert(1)">链接</a>',
    '<a href="java\u200bscript:alert(1)">链接</a>',
]


def page_with(fragment: str) -> str:
    return PAGE.replace("{fragment}", fragment)
