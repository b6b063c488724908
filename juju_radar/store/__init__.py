"""Results kept between builds and checks: the lowest layer, used by every other."""
