#!/usr/bin/env python3
"""Names that a unity build could confuse, in the library's sources.

The library compiles in unity batches (CMakeLists.txt, IOWALL_UNITY): a batch's files become one
translation unit, so a name one file gives internal linkage (in an anonymous namespace, or
`static` at namespace scope) is visible to the files after it in its batch. A clash between two
such names is usually a compile error, but not always: a function in `iowall::{anonymous}` hides
an `iowall::` function of the same name from unqualified calls made inside the anonymous
namespace of a later file, which then silently calls the wrong one; and two internal functions
of one name with different parameters become overloads. Which files share a batch depends on
the file list (and the fuzz build's list differs), so the rule is global:

  1. no two library files give internal linkage to the same name;
  2. no internal name equals a name a project header declares at namespace scope.

Exits 1 listing each clash (file:line and the name), 0 when there are none.
usage: scripts/check-unity-names.py [ROOT]
"""
import os
import re
import sys

LIB_DIRS = ["sim/core", "sim/config", "sim/run", "sim/plan", "sim/report", "sim/check", "sim/cli/commands",
            "models", "measure", "discover"]
HEADER_DIRS = ["sim", "models", "measure", "discover"]

STRIP = re.compile(r'//[^\n]*|/\*.*?\*/|R"(?P<d>[^(\s]*)\(.*?\)(?P=d)"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                   re.S)
IDENT = re.compile(r"[A-Za-z_]\w*")
TYPE_DECL = re.compile(r"\b(?:struct|class|union|enum(?:\s+class|\s+struct)?)\s+([A-Za-z_]\w*)")
ALIAS = re.compile(r"^using\s+([A-Za-z_]\w*)\s*=")
KEYWORDS = {"operator", "const", "constexpr", "static", "inline", "return", "sizeof", "decltype", "noexcept",
            "alignas", "alignof", "template", "typename", "requires", "explicit", "extern", "thread_local"}


def blank(match):
    """Comments and literals become spaces, keeping newlines so line numbers hold."""
    return "".join("\n" if c == "\n" else " " for c in match.group(0))


def strip_template_prefix(stmt):
    if not stmt.startswith("template"):
        return stmt
    depth, i = 0, stmt.find("<")
    if i < 0:
        return stmt
    for j in range(i, len(stmt)):
        if stmt[j] == "<":
            depth += 1
        elif stmt[j] == ">":
            depth -= 1
            if depth == 0:
                return stmt[j + 1:].strip()
    return stmt


def top_level(stmt, stop):
    """`stmt` cut at the first of `stop` outside (), [] and <>."""
    depth = 0
    for i, c in enumerate(stmt):
        if depth == 0 and c in stop:
            return stmt[:i], c
        if c in "([<":
            depth += 1
        elif c in ")]>":
            depth -= 1
    return stmt, None


def declared_names(stmt):
    """The names a namespace-scope statement (up to its `{` or `;`) declares."""
    stmt = strip_template_prefix(" ".join(stmt.split()))
    if not stmt or stmt.startswith(("namespace", "using namespace", "static_assert", "friend", "extern \"C\"")):
        return []
    if stmt.startswith("using "):
        # An alias may be declared again to the same type: it is named with its type.
        m = ALIAS.match(stmt)
        return [m.group(1) + " = " + stmt[m.end():].strip()] if m else []
    m = TYPE_DECL.match(stmt) or TYPE_DECL.match(re.sub(r"^(?:static|inline|constexpr|const)\s+", "", stmt))
    if m and "(" not in stmt.split(m.group(1))[0]:
        return [m.group(1)]
    head, stop = top_level(stmt, "(={")
    if stop == "(":
        names = IDENT.findall(head)
        name = names[-1] if names else ""
        if not name or name in KEYWORDS or re.fullmatch(r"[A-Z0-9_]+", name) or head.rstrip().endswith("::" + name):
            return []  # a macro's call, an operator, or a member defined out of its class
        return [name]
    # Variables: each declarator's name, before its `=`, `{` or `[`.
    names = []
    for part in re.split(r",(?![^<(\[]*[>)\]])", stmt):
        decl, _ = top_level(part, "={[")
        ids = [i for i in IDENT.findall(decl) if i not in KEYWORDS]
        if ids:
            names.append(ids[-1])
    return names


def scan(path):
    """(internal names, namespace-scope names) of one file, each as [(name, line)]."""
    text = STRIP.sub(blank, open(path, encoding="utf-8").read())
    text = re.sub(r"^\s*#.*(?:\\\n.*)*$", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.M)
    internal, public = [], []
    stack = []  # "ns", "anon" or "block" for each open brace
    stmt, stmt_line, line, paren = "", 1, 1, 0
    for c in text:
        if c == "\n":
            line += 1
        at_ns_scope = all(s != "block" for s in stack)
        if at_ns_scope and c in "()":
            paren += 1 if c == "(" else -1
        if c in "{;" and at_ns_scope and paren == 0:
            flat = " ".join(stmt.split())
            if c == "{" and re.fullmatch(r"(?:inline\s+)?namespace(?:\s+[\w:]+)?", flat):
                stack.append("anon" if flat.endswith("namespace") else "ns")
            else:
                names = declared_names(stmt)
                if "anon" in stack or re.match(r"\s*static\b", stmt):
                    internal += [(n, stmt_line) for n in names]
                else:
                    public += [(n, stmt_line) for n in names]
                if c == "{":
                    stack.append("block")
            stmt = ""
            continue
        if c == "{":
            stack.append("block")
        elif c == "}":
            if stack:
                stack.pop()
            if all(s != "block" for s in stack) and paren == 0:
                stmt = ""
            continue
        if at_ns_scope:
            if not stmt.strip():
                stmt_line = line
            stmt += c
    return internal, public


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    def files(dirs, ext):
        for d in dirs:
            for base, _, names in os.walk(os.path.join(root, d)):
                for n in sorted(names):
                    if n.endswith(ext):
                        yield os.path.relpath(os.path.join(base, n), root)
    def split(entry):
        name, _, alias = entry.partition(" = ")
        return name, alias or None

    def same_alias(a, b):
        return a is not None and a == b

    declared = {}
    for h in sorted(set(files(HEADER_DIRS, ".hpp"))):
        for entry, line in scan(os.path.join(root, h))[1]:
            name, alias = split(entry)
            declared.setdefault(name, (f"{h}:{line}", alias))
    owners = {}
    clashes = []
    for src in sorted(set(files(LIB_DIRS, ".cpp"))):
        seen = set()
        for entry, line in scan(os.path.join(root, src))[0]:
            name, alias = split(entry)
            if name in seen:
                continue  # overloads within one file are the file's own business
            seen.add(name)
            where = f"{src}:{line}"
            if name in owners:
                if not same_alias(alias, owners[name][1]):
                    clashes.append(f"{where}: '{name}' is also internal to {owners[name][0]}")
            else:
                owners[name] = (where, alias)
            if name in declared and not same_alias(alias, declared[name][1]):
                clashes.append(f"{where}: '{name}' hides the name {declared[name][0]} declares")
    for c in clashes:
        print(c)
    if clashes:
        print(f"check-unity-names: {len(clashes)} names a unity batch could confuse; rename them "
              "(one file's helper gets a name of its own)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
