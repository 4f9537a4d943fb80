#!/usr/bin/env python3
"""Fails when a page under the site's docs_dir is missing from the nav.

MkDocs 1.4 only logs such orphan pages (at INFO level, which --strict does
not turn into an error). Nav entries whose file does not exist are already
an error of `mkdocs build --strict`; this script reports them too.

Usage: check_nav.py [docs/website/mkdocs.yml]
"""
import os
import sys

import yaml


class _Loader(yaml.SafeLoader):
    pass


# mkdocs.yml may use !!python/name or !ENV tags; ignore their values.
_Loader.add_multi_constructor("", lambda loader, suffix, node: None)


def nav_pages(nav):
    if isinstance(nav, str):
        if "://" not in nav:
            yield nav
    elif isinstance(nav, list):
        for item in nav:
            yield from nav_pages(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            yield from nav_pages(value)


def main():
    config_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
        "website", "mkdocs.yml")
    with open(config_path) as f:
        config = yaml.load(f, Loader=_Loader)
    docs_dir = os.path.join(os.path.dirname(os.path.abspath(config_path)),
                            config.get("docs_dir", "docs"))
    in_nav = set(os.path.normpath(p) for p in nav_pages(config.get("nav", [])))
    on_disk = set()
    for dirpath, _, files in os.walk(docs_dir):
        for name in files:
            if name.endswith(".md"):
                on_disk.add(os.path.normpath(os.path.relpath(
                    os.path.join(dirpath, name), docs_dir)))
    orphans = sorted(on_disk - in_nav)
    missing = sorted(in_nav - on_disk)
    for page in orphans:
        print("check_nav: %s is not in the nav of %s" % (page, config_path),
              file=sys.stderr)
    for page in missing:
        print("check_nav: nav entry %s has no file under %s" % (page, docs_dir),
              file=sys.stderr)
    if orphans or missing:
        return 1
    print("check_nav: %d pages, all in the nav" % len(on_disk))
    return 0


if __name__ == "__main__":
    sys.exit(main())
