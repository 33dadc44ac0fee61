#!/usr/bin/env python3
"""Checks what the guides say about this package's products against Package.swift.

    python3 .ci/docs-claims.py        (from anywhere; prints each wrong claim with its file and line)

Four kinds of claim are read from README.md, Docs/*.md and the DocC catalogs (Sources/*/*.docc/*.md):
- `.product(name: "X", package: "sdk-core")`: X must be a product;
- a row of a Markdown table with a "Kind" column (Docs/Architecture.md's modules): each target named in backticks
  in the first cell must be a product of the kind the second cell says ("library product", "executable
  product"), or, for any other kind (an internal or test target), not a product at all;
- a sentence that says a backticked name is "not a product" (or names are "not products"): none of them may be
  a product;
- a sentence that says a backticked name is "a product" or "a library product": it must be one.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
manifest = (root / "Package.swift").read_text()
products = {}
for kind, name in re.findall(r'\.(library|executable)\(\s*name:\s*"([^"]+)"', manifest):
    products[name] = kind
targets = set(re.findall(r'\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"', manifest))
if not products or not targets:
    sys.exit("docs-claims: no products or targets found in Package.swift")

files = [root / "README.md", *sorted((root / "Docs").glob("*.md")), *sorted(root.glob("Sources/*/*.docc/*.md"))]
problems = []


def report(path, line, message):
    problems.append(f"{path.relative_to(root)}:{line}: {message}")


def sentences(text):
    """(first line number, sentence) for each sentence of the prose, code blocks left out."""
    prose, in_code = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            prose.append((number, ""))
            continue
        prose.append((number, "" if in_code or line.lstrip().startswith("|") else line))
    current, start = [], None
    for number, line in prose:
        if not line.strip():
            if current:
                yield from split(start, " ".join(current))
            current, start = [], None
            continue
        if start is None:
            start = number
        current.append(line.strip())
    if current:
        yield from split(start, " ".join(current))


def split(start, paragraph):
    for sentence in re.split(r"(?<=[.;:])\s+(?=[A-Z`(])", paragraph):
        yield start, sentence


for path in files:
    text = path.read_text()
    header = None
    for number, line in enumerate(text.splitlines(), 1):
        is_row = line.lstrip().startswith("|")
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if is_row else []
        if not is_row:
            header = None
        elif header is None:
            header = [cell.lower() for cell in cells]
            cells = []
        for name in re.findall(r'\.product\(\s*name:\s*"([^"]+)"\s*,\s*package:\s*"sdk-core"', line):
            if name not in products:
                report(path, number, f'.product(name: "{name}") is not a product of Package.swift')
        if len(cells) >= 2 and len(header) >= 2 and header[1] == "kind":
            names = [name for name in re.findall(r"`([A-Za-z][A-Za-z0-9_]*)`", cells[0]) if name in targets]
            kind = cells[1].lower()
            for name in names:
                if "library product" in kind and products.get(name) != "library":
                    report(path, number, f"`{name}` is listed as a library product; Package.swift does not make it one")
                elif "executable product" in kind and products.get(name) != "executable":
                    report(path, number, f"`{name}` is listed as an executable product; Package.swift does not make it one")
                elif "product" not in kind and name in products:
                    report(path, number, f"`{name}` is listed as \"{cells[1]}\" but it is a {products[name]} product")
    for number, sentence in sentences(text):
        names = [name for name in re.findall(r"`([A-Za-z][A-Za-z0-9_]*)`", sentence) if name in targets]
        if not names:
            continue
        if re.search(r"\bnot (a |the )?products?\b|\bnot an? (library|executable) product\b", sentence):
            for name in names:
                if name in products:
                    report(path, number, f"says `{name}` is not a product, but Package.swift makes it a {products[name]} product")
        elif re.search(r"\b(is|as) an? (library |executable )?product\b|\(an? (library |executable )?product\b", sentence):
            if not any(name in products for name in names):
                report(path, number, f"says {', '.join(f'`{n}`' for n in names)} is a product; Package.swift has no such product")

if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(f"docs-claims: {len(problems)} claim(s) about products disagree with Package.swift")
print(f"docs-claims: {len(files)} files agree with Package.swift's {len(products)} products")
