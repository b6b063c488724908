<?xml version="1.0" encoding="utf-8"?>
<!-- The archive's Atom feeds as a browser shows them (juju_radar/outputs/feeds.py names
     this stylesheet in each feed): what the page is, its address to paste into a feed
     reader, and its entries as links. Text for readers is Chinese. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:atom="http://www.w3.org/2005/Atom" exclude-result-prefixes="atom">
  <xsl:output method="html" encoding="utf-8" doctype-system="about:legacy-compat"/>
  <xsl:template match="/atom:feed">
    <html lang="zh-CN">
      <head>
        <meta charset="utf-8"/>
        <!-- The feed's links are relative to its xml:base, the site's root. -->
        <base href="{@xml:base}"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title><xsl:value-of select="atom:title"/>（订阅地址）</title>
        <style>
          :root { color-scheme: light dark; }
          body { font-family: "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif;
                 font-size: 17px; line-height: 1.8; max-width: 40em; margin: 0 auto; padding: 1em; }
          .radar-feed-about { padding: 0.75em 1em; border: 1px solid #8888; border-radius: 0.4em; }
          .radar-feed-address { width: 100%; font: inherit; font-size: 0.9em; padding: 0.3em; }
          li { margin-bottom: 0.5em; }
        </style>
      </head>
      <body>
        <h1><xsl:value-of select="atom:title"/></h1>
        <p><xsl:value-of select="atom:subtitle"/></p>
        <div class="radar-feed-about">
          <p>这是一个订阅源（Atom）：把下面的地址粘贴到 RSS 阅读器（如 Feedly、Inoreader、NetNewsWire）的“添加订阅”里，有新内容时阅读器会自动收到。</p>
          <label for="radar-feed-address">本订阅源的地址</label>
          <input id="radar-feed-address" class="radar-feed-address" readonly="readonly"
                 value="{atom:link[@rel='self']/@href}"/>
          <script>
            const address = document.getElementById("radar-feed-address");
            address.value = new URL(address.value, document.baseURI).href;
            address.addEventListener("focus", () => address.select());
          </script>
        </div>
        <p><a href="{atom:link[@rel='alternate']/@href}">回到网站</a></p>
        <h2>最新条目</h2>
        <ul>
          <xsl:for-each select="atom:entry">
            <li>
              <a href="{atom:link[not(@rel) or @rel='alternate']/@href}"><xsl:value-of select="atom:title"/></a>
              <xsl:text>（</xsl:text><xsl:value-of select="substring(atom:published, 1, 10)"/><xsl:text>）</xsl:text>
            </li>
          </xsl:for-each>
        </ul>
      </body>
    </html>
  </xsl:template>
</xsl:stylesheet>
