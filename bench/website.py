"""Shared by the benchmark scripts that publish their latest results on the
website's benchmark-suites page: each owns a block between
`<!-- NAME:begin -->` and `<!-- NAME:end -->` markers, rewritten whole."""


def replace_block(page, name, text):
  """Replaces the block |name| of |page| (a Markdown file) with |text|."""
  begin, end = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
  with open(page) as f:
    content = f.read()
  if begin not in content or end not in content:
    raise RuntimeError("%s lacks the %s ... %s markers" % (page, begin, end))
  head, rest = content.split(begin, 1)
  _, tail = rest.split(end, 1)
  with open(page, "w") as f:
    f.write(head + begin + "\n" + text + end + tail)
