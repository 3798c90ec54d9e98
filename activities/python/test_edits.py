"""Classifies the edits between two versions of a test_solution.py by their syntax trees.

Usage: python test_edits.py BEFORE.py AFTER.py
Prints one JSON object as the last stdout line: {"edits": [ {kind, where, tests, detail}, ... ]}.

Units of the module: imports; fixtures (functions decorated with pytest.fixture); tests
(functions named test*, also methods of Test* classes, "Class.method"); helpers (other
functions); constants (module-level assignments); anything else at module level. A unit is
matched across the two versions by name.

Kinds:
  imports-syntax      imports differ, a version does not parse, or only comments/layout differ
  fixture-data        a fixture, helper, constant or a test's own setup differs only in literals
  fixture-structure   ... differs in anything else (or is added or removed)
  assertion-added     a test has assertions the snapshot's did not (a new test counts)
  assertion-removed   a test lost assertions (a removed test counts)
  assertion-changed   an assertion was replaced by a different one
An assertion is an `assert` statement, a call whose name contains "assert" (assertDataFrameEqual,
assert_frame_equal, ...), a `with pytest.raises(...)` block, or an assignment to a name that starts
with "expected" or "want" (the value a test compares with).

`tests` lists the tests an edit can change the outcome of: the test itself, or every test that
uses the edited fixture, helper or constant, directly or through other fixtures (by parameter
name or by reference). Imports and syntax edits list no test.
"""
import ast
import copy
import json
import sys


def _is_fixture(fn):
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name == "fixture":
            return True
    return False


def _call_name(call):
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")


def _is_assertion(node):
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and "assert" in _call_name(node.value).lower():
        return True
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return any(isinstance(i.context_expr, ast.Call) and _call_name(i.context_expr) == "raises" for i in node.items)
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(isinstance(t, ast.Name) and t.id.lower().startswith(("expected", "want")) for t in targets)
    return False


class _Mask(ast.NodeTransformer):
    """Replaces every literal by a placeholder: two trees equal after masking differ only in data."""

    def visit_Constant(self, node):
        return ast.copy_location(ast.Constant(value="<literal>"), node)


class _DropAssertions(ast.NodeTransformer):
    """Removes every assertion statement (what remains is the test's setup)."""

    def visit(self, node):
        if isinstance(node, ast.stmt) and _is_assertion(node):
            return None
        return super().visit(node)


def _dump(node):
    return ast.dump(node, include_attributes=False)


def _masked(node):
    return _dump(_Mask().visit(_copy(node)))


def _copy(node):
    # A deep copy, not a round trip through ast.unparse: a test whose body is only assertions has
    # an empty body once _setup drops them, which unparses to code that does not parse.
    return copy.deepcopy(node)


def _assertions(fn):
    out = []
    for node in ast.walk(fn):
        if isinstance(node, ast.stmt) and node is not fn and _is_assertion(node):
            out.append(_dump(node))
    return out


def _setup(fn):
    return _DropAssertions().visit(_copy(fn))


def _units(tree):
    """name -> (role, node) for every unit but the imports; plus the imports' dumps."""
    units, imports = {}, []
    for i, node in enumerate(tree.body):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append(_dump(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            role = "fixture" if _is_fixture(node) else "test" if node.name.startswith("test") else "helper"
            units[node.name] = (role, node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for m in node.body:
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    role = "fixture" if _is_fixture(m) else "test" if m.name.startswith("test") else "helper"
                    units[f"{node.name}.{m.name}"] = (role, m)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            units[names[0] if names else f"<statement {i}>"] = ("constant", node)
        else:
            units[f"<statement {i}>"] = ("constant", node)
    return units, sorted(imports)


def _dependencies(units):
    """name -> the unit names it refers to (parameters name fixtures; names refer to helpers and constants)."""
    deps = {}
    for name, (_, node) in units.items():
        refs = set()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            refs |= {a.arg for a in node.args.args}
        refs |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        deps[name] = {r for r in refs if r in units and r != name}
    return deps


def _users(units):
    """unit name -> the tests whose outcome depends on it (transitively)."""
    deps = _dependencies(units)
    users = {n: set() for n in units}
    for test, (role, _) in units.items():
        if role != "test":
            continue
        seen, stack = set(), [test]
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            stack.extend(deps.get(n, ()))
        for n in seen:
            users[n].add(test)
    return users


def _literal_changes(a, b, limit=3):
    la = [n.value for n in ast.walk(a) if isinstance(n, ast.Constant)]
    lb = [n.value for n in ast.walk(b) if isinstance(n, ast.Constant)]
    pairs = [f"{x!r} -> {y!r}" for x, y in zip(la, lb) if x != y]
    return ", ".join(pairs[:limit]) + (", ..." if len(pairs) > limit else "")


def _multiset_diff(before, after):
    rest = list(after)
    only_before = []
    for x in before:
        if x in rest:
            rest.remove(x)
        else:
            only_before.append(x)
    return only_before, rest


def classify(before_text, after_text):
    """The edits from before_text to after_text (see the module docstring)."""
    if before_text == after_text:
        return []
    try:
        before = ast.parse(before_text)
    except SyntaxError as e:
        return [{"kind": "imports-syntax", "where": "<module>", "tests": [], "detail": f"the snapshot's file does not parse (line {e.lineno}); the revision changes its syntax"}]
    try:
        after = ast.parse(after_text)
    except SyntaxError as e:
        return [{"kind": "imports-syntax", "where": "<module>", "tests": [], "detail": f"the revised file does not parse (line {e.lineno})"}]
    if _dump(before) == _dump(after):
        return [{"kind": "imports-syntax", "where": "<module>", "tests": [], "detail": "comments or layout only"}]
    ub, ib = _units(before)
    ua, ia = _units(after)
    users_b, users_a = _users(ub), _users(ua)
    edits = []

    def users(name):
        return sorted(users_b.get(name, set()) | users_a.get(name, set()))

    if ib != ia:
        edits.append({"kind": "imports-syntax", "where": "<imports>", "tests": [], "detail": "imports changed"})
    for name in list(ub) + [n for n in ua if n not in ub]:
        b, a = ub.get(name), ua.get(name)
        role = (a or b)[0]
        if b and a and _dump(b[1]) == _dump(a[1]):
            continue
        if role == "test" and (b is None or a is None or b[0] == a[0] == "test"):
            if b is None:
                n = len(_assertions(a[1]))
                edits.append({"kind": "assertion-added", "where": name, "tests": [name], "detail": f"new test with {n} assertion(s)"})
                continue
            if a is None:
                n = len(_assertions(b[1]))
                edits.append({"kind": "assertion-removed", "where": name, "tests": [name], "detail": f"test removed with its {n} assertion(s)"})
                continue
            gone, new = _multiset_diff(_assertions(b[1]), _assertions(a[1]))
            changed = min(len(gone), len(new))
            if changed:
                edits.append({"kind": "assertion-changed", "where": name, "tests": [name], "detail": f"{changed} assertion(s) changed"})
            if len(new) > changed:
                edits.append({"kind": "assertion-added", "where": name, "tests": [name], "detail": f"{len(new) - changed} assertion(s) added"})
            if len(gone) > changed:
                edits.append({"kind": "assertion-removed", "where": name, "tests": [name], "detail": f"{len(gone) - changed} assertion(s) removed"})
            sb, sa = _setup(b[1]), _setup(a[1])
            if _dump(sb) != _dump(sa):
                if _masked(sb) == _masked(sa):
                    edits.append({"kind": "fixture-data", "where": name, "tests": [name], "detail": f"the test's own data changed: {_literal_changes(sb, sa)}"})
                else:
                    edits.append({"kind": "fixture-structure", "where": name, "tests": [name], "detail": "the test's setup changed"})
            continue
        if b is None or a is None:
            edits.append({"kind": "fixture-structure", "where": name, "tests": users(name), "detail": f"{role} {'added' if b is None else 'removed'}"})
        elif _masked(b[1]) == _masked(a[1]):
            edits.append({"kind": "fixture-data", "where": name, "tests": users(name), "detail": f"{role} literals changed: {_literal_changes(b[1], a[1])}"})
        else:
            edits.append({"kind": "fixture-structure", "where": name, "tests": users(name), "detail": f"{role} changed"})
    return edits


def main(argv):
    if len(argv) != 3:
        print("usage: test_edits.py BEFORE.py AFTER.py", file=sys.stderr)
        return 2
    texts = []
    for p in argv[1:]:
        try:
            with open(p, encoding="utf-8") as f:
                texts.append(f.read())
        except FileNotFoundError:
            texts.append("")
    print(json.dumps({"edits": classify(texts[0], texts[1])}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
