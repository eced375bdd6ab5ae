"""Text normalisation for comparing ltc's printed IR with Triton's, op by op.

``normalize(text)`` makes two printings of the same IR equal when they differ only in
what MLIR leaves free: alias names (aliases are expanded inline), locations, SSA value
and block-argument names (renumbered in order of first appearance), the
``builtin.module`` / ``module`` spelling and runs of spaces (MLIR's ``scf.for`` prints
``)  : i32``).
"""

from __future__ import annotations

import re

_ALIAS_LINE = re.compile(r"^(#[\w$.-]+|![\w$.-]+) = (.*)$")
_VALUE = re.compile(r"%[\w$.-]+")
_BLOCK = re.compile(r"\^[\w$.-]+")


def _strip_locations(line: str) -> str:
    out: list[str] = []
    i = 0
    while True:
        j = line.find("loc(", i)
        if j < 0 or (j > 0 and (line[j - 1].isalnum() or line[j - 1] == "_")):
            if j < 0:
                out.append(line[i:])
                break
            out.append(line[i : j + 4])
            i = j + 4
            continue
        out.append(line[i:j].rstrip(" "))
        depth = 0
        k = j + 3
        while k < len(line):
            if line[k] == "(":
                depth += 1
            elif line[k] == ")":
                depth -= 1
                if depth == 0:
                    break
            elif line[k] == '"':
                k = line.index('"', k + 1)
            k += 1
        i = k + 1
    return "".join(out)


def normalize(text: str) -> list[str]:
    """Op lines of ``text`` with aliases expanded, locations dropped, names renumbered."""
    aliases: dict[str, str] = {}
    body: list[str] = []
    for raw in text.splitlines():
        m = _ALIAS_LINE.match(raw)
        if m:
            aliases[m.group(1)] = m.group(2)
            continue
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        body.append(line)
    names = sorted(aliases, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(n) + r"(?![\w$.-])" for n in names)) if names else None

    def expand(s: str) -> str:
        for _ in range(8):  # nested aliases (parent = #blocked)
            if pattern is None:
                return s
            new = pattern.sub(lambda m: aliases[m.group(0)], s)
            if new == s:
                return s
            s = new
        return s

    values: dict[str, str] = {}
    blocks: dict[str, str] = {}
    out: list[str] = []
    for line in body:
        line = expand(_strip_locations(line))
        line = _VALUE.sub(lambda m: values.setdefault(m.group(0), f"%v{len(values)}"), line)
        line = _BLOCK.sub(lambda m: blocks.setdefault(m.group(0), f"^b{len(blocks)}"), line)
        line = re.sub(r"^builtin\.module\b", "module", line)
        line = re.sub(r"  +", " ", line)  # MLIR's scf.for prints ")  : i32"
        out.append(line)
    return out
