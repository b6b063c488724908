"""What the build writes besides the pages: feeds, exports, sitemap, social meta, stats, search."""
