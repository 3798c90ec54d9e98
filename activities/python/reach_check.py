"""The reach check (docs/verdicts.md "Layer 1"): a static reading of a candidate's Python files
that refuses any text reaching the process, the interpreter's internals or pytest's machinery.

Runs OUTSIDE every sandbox, with the venv's Python, on the text only: `ast.parse` builds a syntax
tree and executes nothing. activities/execution/reach.ts calls it before a suite runs; a refused
file is never run (its run is "not passed: reaches <what> (<file> line N)").

The admitted subset is defined by allowlists (the modules a DataFrame test imports, the attributes
of each that are used), not by a list of known tricks, so that what it admits can be argued about
(docs/verdicts.md "What is guaranteed, and why"). The rules, each refusal naming one of them:

- imports only of ALLOWED_MODULES (and `solution`, the checked code under test); no relative
  import, no `import *`;
- a restricted module (MODULE_ATTRS) used only as `module.attr` with `attr` listed, and no module
  but `solution` used as a value;
- no attribute whose name starts with "_" (DATA_DUNDERS aside) nor any of DENIED_ATTRS;
- no call of DENIED_BUILTINS; getattr/hasattr only with a literal name that passes the attribute
  rule; operator.attrgetter/methodcaller likewise; str.format/format_map only on a literal whose
  fields hold no attribute or key lookup; `type(x)` of one argument only compared or for its name;
- no attribute store or delete except on `self`/`cls`, on `solution` or on a class the file
  defines; no subscript store rooted in an imported name;
- monkeypatch and unittest.mock targets only `solution`, what it holds, or what the file defines;
- no `pytest_*` function, no `pytest_plugins`, no fixture named in DENIED_FIXTURES, no string
  condition in skipif/xfail, no `metaclass=`;
- no `open()` of an integer, no string constant naming a path under /proc, /dev or /sys, no SQL
  text running a script or a Java method (SQL_DENIED);
- sys.exit only inside `if __name__ == "__main__":` (pytest never runs it).

Also returns the test functions each file defines (module-level `test_*` functions, `test_*`
methods of `Test*` classes without `__init__`, bases defined in the file included), the
independent count the verdict is cross-checked against (activities/execution/verdict.ts).

CLI: python reach_check.py FILE [FILE ...]  ->  one JSON object on stdout:
    {"files": {"<basename>": {"refusals": [{"line", "what", "text"}], "tests": [...],
               "syntaxError": "..." (when it does not parse)}}}
"""
from __future__ import annotations

import ast
import json
import re
import sys

#: Modules a checked file may import (exact names; a name's submodules only when listed).
ALLOWED_MODULES = frozenset({
    "pytest",
    "pyspark", "pyspark.sql", "pyspark.sql.functions", "pyspark.sql.types", "pyspark.sql.window",
    "pyspark.sql.column", "pyspark.sql.dataframe", "pyspark.sql.session", "pyspark.sql.utils",
    "pyspark.sql.group", "pyspark.sql.readwriter", "pyspark.sql.catalog", "pyspark.sql.avro",
    "pyspark.sql.avro.functions",
    "pyspark.testing", "pyspark.testing.utils", "pyspark.errors", "pyspark.errors.exceptions",
    "pyspark.errors.exceptions.base", "pyspark.errors.exceptions.captured",
    "pandas", "pandas.testing", "numpy", "numpy.testing",
    "decimal", "datetime", "math", "cmath", "typing", "collections", "collections.abc",
    "itertools", "functools", "operator", "re", "json", "csv", "dataclasses", "string", "random",
    "statistics", "fractions", "numbers", "copy", "enum", "textwrap", "unittest", "unittest.mock",
    "os", "os.path", "sys", "pathlib", "tempfile", "time", "calendar", "zoneinfo", "uuid",
    "hashlib", "warnings", "contextlib", "abc", "__future__", "logging", "solution",
})

#: Modules whose `import *` is admitted: their public names are data types only.
STAR_MODULES = frozenset({"pyspark.sql.types", "decimal", "datetime", "math", "typing"})

#: Restricted modules: the only attributes a file may use (anything else is refused).
MODULE_ATTRS = {
    "os": {"path", "getcwd", "sep", "linesep", "environ", "getenv", "cpu_count", "curdir", "pardir", "extsep", "pathsep"},
    "os.path": {"join", "dirname", "abspath", "basename", "exists", "isfile", "isdir", "realpath", "normpath", "split",
                "splitext", "sep", "relpath", "expanduser", "getsize", "commonpath", "isabs"},
    "sys": {"path", "version_info", "version", "maxsize", "float_info", "platform", "byteorder", "exit", "int_info",
            "float_repr_style", "implementation"},
    "pytest": {"approx", "raises", "fixture", "mark", "param", "skip", "fail", "xfail", "importorskip", "warns",
               "deprecated_call", "FixtureRequest", "MonkeyPatch", "TempPathFactory", "CaptureFixture", "LogCaptureFixture"},
    "operator": {"itemgetter", "attrgetter", "methodcaller", "add", "sub", "mul", "truediv", "floordiv", "mod", "neg",
                 "eq", "ne", "lt", "le", "gt", "ge", "and_", "or_", "not_", "truth", "abs", "pos", "pow", "concat",
                 "contains", "countOf", "indexOf", "is_", "is_not", "xor", "index"},
    "string": {"ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits",
               "punctuation", "printable", "whitespace", "capwords", "Template"},
    "tempfile": {"TemporaryDirectory", "mkdtemp", "gettempdir", "NamedTemporaryFile"},
    "unittest": {"mock", "TestCase"},
    "unittest.mock": {"Mock", "MagicMock", "patch", "call", "ANY", "sentinel", "PropertyMock", "create_autospec", "DEFAULT"},
    "logging": {"getLogger", "basicConfig", "DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL", "debug", "info",
                "warning", "error", "exception", "critical", "Logger", "StreamHandler", "Formatter", "disable", "NullHandler"},
    "time": {"time", "perf_counter", "monotonic", "sleep", "strftime", "strptime", "gmtime", "localtime", "mktime", "time_ns"},
}

#: Dunders that are plain data and safe to read.
DATA_DUNDERS = frozenset({"__name__", "__doc__", "__qualname__", "__file__", "__version__", "__init__"})

#: Attributes refused whatever they are read from: interpreter internals without a leading "_",
#: pytest's machinery, and the public APIs that load pickles, run processes or load code.
DENIED_ATTRS = {
    **{n: "the interpreter's frames and code" for n in (
        "tb_frame", "tb_next", "tb_lasti", "tb_lineno", "f_back", "f_globals", "f_locals", "f_builtins", "f_code",
        "f_trace", "f_lasti", "gi_frame", "gi_code", "gi_yieldfrom", "cr_frame", "cr_code", "cr_await", "ag_frame",
        "ag_code", "ag_await", "func_globals", "func_code", "im_func", "mro", "frame", "tb", "traceback",
        "with_traceback")},
    **{n: "pytest's machinery" for n in (
        "request", "pluginmanager", "hook", "ihook", "session", "node", "stash", "getfixturevalue", "from_config",
        "addfinalizer", "applymarker", "syspath_prepend", "chdir", "keywords", "fixturenames")},
    **{n: "pickled code (a pickle can run anything)" for n in ("read_pickle", "to_pickle", "pickleFile", "saveAsPickleFile", "loads_pickle")},
    **{n: "a process or code the JVM or Python would start or load" for n in (
        "pipe", "addPyFile", "addFile", "addArchive", "addJar", "registerJavaFunction", "registerJavaUDAF",
        "ctypes", "ctypeslib", "memmap", "setSystemProperty", "readStream", "writeStream", "foreachBatch",
        "eval", "query", "exec_module", "load_module", "system", "popen", "reflect", "java_method", "try_reflect")},
    **{n: "state the JVM shares between variants" for n in (
        "statusTracker", "createGlobalTempView", "createOrReplaceGlobalTempView", "uiWebUrl", "setLocalProperty",
        "getLocalProperty", "setJobGroup", "setJobDescription", "addArtifact", "addArtifacts", "copyFromLocalToFs")},
}

#: Builtins whose call is refused.
DENIED_BUILTINS = {
    "setattr": "setattr (a computed attribute store)", "delattr": "delattr", "vars": "vars()", "globals": "globals()",
    "locals": "locals()", "eval": "eval", "exec": "exec", "compile": "compile", "__import__": "__import__",
    "breakpoint": "breakpoint", "exit": "exit", "quit": "quit", "input": "input", "memoryview": "memoryview",
    "open_code": "open_code", "help": "help",
    "reflect": "reflect (a Java method the JVM would call)", "java_method": "java_method (a Java method the JVM would call)",
    "try_reflect": "try_reflect (a Java method the JVM would call)",
}

#: Names refused wherever they are read (not only called).
DENIED_NAMES = {"__builtins__": "__builtins__", "__loader__": "the module's loader", "__spec__": "the module's spec",
                "SystemExit": "SystemExit (ending the process)", "KeyboardInterrupt": "KeyboardInterrupt (stopping pytest)",
                "__import__": "__import__", "__debug__": None}

#: Fixtures that hold pytest's config, its plugins, or write pytest's reports.
DENIED_FIXTURES = {"request", "pytestconfig", "pytester", "testdir", "cache", "record_property", "record_xml_attribute",
                   "record_testsuite_property", "doctest_namespace", "record_xml_property"}

#: SQL text that runs a script or a Java method in the JVM, or loads code into it.
SQL_DENIED = re.compile(r"\bTRANSFORM\s*\(|\b(try_)?reflect\s*\(|\bjava_method\s*\(|\bADD\s+(JARS?|FILES?|ARCHIVES?)\b"
                        r"|\bCREATE\s+(OR\s+REPLACE\s+)?(TEMPORARY\s+)?FUNCTION\b", re.I)

#: A string constant naming a path under the process's own files.
OS_PATH = re.compile(r"(^|[\s'\"=:(])/(proc|dev|sys)(/|$)|^/(proc|dev|sys)\b")

#: Fields of a format string that read attributes or keys ("{0.x}", "{a[k]}").
FORMAT_LOOKUP = re.compile(r"\{[^{}!:]*[.\[][^{}]*\}")

#: monkeypatch methods whose first argument is a target object.
PATCH_METHODS = {"setattr", "delattr", "setitem", "delitem"}


class Refusal(Exception):
    pass


class Checker(ast.NodeVisitor):
    """Walks one file's tree; collects refusals (line, what, text)."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.refusals: list[dict] = []
        self.modules: dict[str, str] = {}      # local name -> module path
        self.imported: set[str] = set()         # local names bound by an import (modules and objects)
        self.defined: set[str] = set()          # classes and functions the file defines (any depth)
        self.classes: set[str] = set()
        self.main_block = 0
        self.strings: dict[str, list] = {}       # name -> every value assigned to it (str constants or None)

    # -- helpers ---------------------------------------------------------------------------
    def refuse(self, node: ast.AST, what: str) -> None:
        line = getattr(node, "lineno", 0)
        text = self.lines[line - 1].strip()[:120] if 0 < line <= len(self.lines) else ""
        self.refusals.append({"line": line, "what": what, "text": text})

    def root(self, node: ast.AST) -> ast.AST:
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return node

    def dotted(self, node: ast.AST) -> str | None:
        """`a.b.c` as text when it is a chain of names, else None."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            parts.append(node.id)
            return ".".join(reversed(parts))
        return None

    def module_of(self, node: ast.AST) -> str | None:
        """The module a Name or attribute chain denotes (`os.path` -> "os.path"), else None."""
        if isinstance(node, ast.Name):
            return self.modules.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.module_of(node.value)
            if base and f"{base}.{node.attr}" in ALLOWED_MODULES:
                return f"{base}.{node.attr}"
        return None

    def attr_ok(self, node: ast.AST, name: str) -> None:
        if name.startswith("_") and name not in DATA_DUNDERS:
            self.refuse(node, f"the attribute {name} (a name starting with '_': internals)")
        elif name in DENIED_ATTRS:
            self.refuse(node, f".{name}: {DENIED_ATTRS[name]}")

    # -- imports ---------------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.name not in ALLOWED_MODULES:
                self.refuse(node, f"import of {a.name} (not a module a DataFrame test needs)")
                continue
            if a.asname:
                self.modules[a.asname] = a.name
                self.imported.add(a.asname)
            else:
                top = a.name.split(".")[0]
                self.modules[top] = top
                self.imported.add(top)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        if node.level:
            self.refuse(node, "a relative import")
            return
        if mod not in ALLOWED_MODULES:
            self.refuse(node, f"import from {mod} (not a module a DataFrame test needs)")
            return
        for a in node.names:
            if a.name == "*":
                if mod not in STAR_MODULES:
                    self.refuse(node, f"from {mod} import * (names the check cannot see)")
                continue
            local = a.asname or a.name
            full = f"{mod}.{a.name}"
            if full in ALLOWED_MODULES:
                self.modules[local] = full
            elif mod == "solution":
                pass
            else:
                if mod in MODULE_ATTRS and a.name not in MODULE_ATTRS[mod]:
                    self.refuse(node, f"{mod}.{a.name} (not among the {mod} attributes a test needs)")
                self.attr_ok(node, a.name)
            if mod != "solution":
                self.imported.add(local)

    # -- names and attributes --------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> None:
        if node.id == "__name__" and not isinstance(node.ctx, ast.Load):
            self.refuse(node, "a store into __name__")
        if (isinstance(node.ctx, ast.Load) and not getattr(node, "_lockin_called", False) and node.id not in self.defined
                and node.id not in self.strings and (node.id in DENIED_BUILTINS or node.id in ("getattr", "hasattr", "open", "type"))):
            self.refuse(node, f"the builtin {node.id} used as a value (only a direct call is read)")
        if node.id in DENIED_NAMES and DENIED_NAMES[node.id]:
            self.refuse(node, DENIED_NAMES[node.id])
        elif isinstance(node.ctx, ast.Load) and node.id in self.modules and self.modules[node.id] != "solution":
            self.refuse(node, f"the module {self.modules[node.id]} used as a value (only module.attr is admitted)")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        mod = self.module_of(node.value)
        if mod is not None:
            full = f"{mod}.{node.attr}"
            if mod == "operator" and node.attr in ("attrgetter", "methodcaller") and not getattr(node, "_lockin_called", False):
                self.refuse(node, f"operator.{node.attr} used as a value (only a direct call is read)")
            if isinstance(node.ctx, (ast.Store, ast.Del)) and mod != "solution":
                self.refuse(node, f"a store into {full} (what the module {mod} owns)")
            if full not in ALLOWED_MODULES:
                if mod in MODULE_ATTRS and node.attr not in MODULE_ATTRS[mod]:
                    self.refuse(node, f"{full} (not among the {mod} attributes a test needs)")
                elif mod == "sys" and node.attr == "exit" and not self.main_block:
                    self.refuse(node, "sys.exit (ending the process)")
                self.attr_ok(node, node.attr)
            # the module itself is the value: do not visit the Name (that would refuse it)
            if not isinstance(node.value, ast.Name):
                self.visit(node.value)
            return
        self.attr_ok(node, node.attr)
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.check_store(node)
        self.generic_visit(node)

    def check_store(self, node: ast.Attribute) -> None:
        root = self.root(node)
        if isinstance(root, ast.Name) and (root.id in ("self", "cls") or root.id in self.classes or self.modules.get(root.id) == "solution"):
            return
        self.refuse(node, "an attribute store outside self, cls, the file's classes and solution")

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            root = self.root(node)
            if isinstance(root, ast.Name) and root.id in self.imported:
                self.refuse(node, f"a store into {self.dotted(node.value) or root.id} (what an imported module owns)")
        self.generic_visit(node)

    # -- calls -----------------------------------------------------------------------------
    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        name = f.id if isinstance(f, ast.Name) else None
        if name in DENIED_BUILTINS and name not in self.defined:
            self.refuse(node, DENIED_BUILTINS[name])
        if name in ("getattr", "hasattr") and name not in self.defined:
            if len(node.args) < 2 or not (isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
                self.refuse(node, f"{name} with a computed name")
            else:
                self.attr_ok(node, node.args[1].value)
        if name == "open" and "open" not in self.defined and node.args:
            a = node.args[0]
            if isinstance(a, ast.Constant) and not isinstance(a.value, str):
                self.refuse(node, "open() of a descriptor number")
        if name == "type" and len(node.args) == 1 and not getattr(node, "_lockin_type_ok", False):
            self.refuse(node, "type(x) of an object other than in a comparison or for its name (its class)")
        if isinstance(f, ast.Attribute):
            self.check_method_call(node, f)
        for kw in node.keywords:
            if kw.arg == "allow_pickle":
                self.refuse(node, "allow_pickle= (a pickle can run anything)")
            if kw.arg is None and isinstance(kw.value, ast.Call) and isinstance(kw.value.func, ast.Name) and kw.value.func.id in ("vars", "globals", "locals"):
                pass  # refused as a builtin call
        self.generic_visit(node)

    def check_method_call(self, node: ast.Call, f: ast.Attribute) -> None:
        dotted = self.dotted(f) or ""
        mod = self.module_of(f.value)
        # operator.attrgetter / methodcaller with names
        if mod == "operator" and f.attr in ("attrgetter", "methodcaller"):
            names = node.args if f.attr == "attrgetter" else node.args[:1]
            for a in names:
                if not (isinstance(a, ast.Constant) and isinstance(a.value, str)):
                    self.refuse(node, f"operator.{f.attr} with a computed name")
                else:
                    for part in a.value.split("."):
                        self.attr_ok(node, part)
        if mod == "pytest" and f.attr == "importorskip":
            a = node.args[0] if node.args else None
            if not (isinstance(a, ast.Constant) and a.value in ALLOWED_MODULES):
                self.refuse(node, "pytest.importorskip of a module not admitted")
        if mod == "sys" or (isinstance(f.value, ast.Attribute) and self.module_of(f.value.value) == "sys" and f.value.attr == "path"):
            pass
        # sys.path may only be inserted into or appended to
        if isinstance(f.value, ast.Attribute) and self.module_of(f.value.value) == "sys" and f.value.attr == "path":
            if f.attr not in ("insert", "append"):
                self.refuse(node, f"sys.path.{f.attr} (only insert and append are admitted)")
        # os.environ is read-only
        if isinstance(f.value, ast.Attribute) and self.module_of(f.value.value) == "os" and f.value.attr == "environ":
            if f.attr not in ("get", "copy", "keys", "items", "values"):
                self.refuse(node, f"os.environ.{f.attr} (the environment is read only)")
        # str.format on a literal with attribute or key lookups, or on a computed format
        if f.attr in ("format", "format_map") and not mod:
            if isinstance(f.value, ast.Constant) and isinstance(f.value.value, str):
                if FORMAT_LOOKUP.search(f.value.value.replace("{{", "").replace("}}", "")):
                    self.refuse(node, "a format string that looks up attributes or keys")
            elif isinstance(f.value, ast.Name) and f.value.id in self.strings and None not in self.strings[f.value.id]:
                # a name the file only ever binds to string constants: those are the formats
                if any(FORMAT_LOOKUP.search(v.replace("{{", "").replace("}}", "")) for v in self.strings[f.value.id]):
                    self.refuse(node, "a format string that looks up attributes or keys")
            elif not (isinstance(f.value, ast.Name) and f.value.id in self.modules):
                self.refuse(node, f".{f.attr} on a computed format string (its fields could look up attributes)")
        # monkeypatch / mock targets, and the names they set
        if f.attr in PATCH_METHODS and isinstance(f.value, ast.Name) and f.value.id not in self.modules and node.args:
            strict = f.attr in ("setattr", "delattr") and not (isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))
            self.check_patch_target(node, node.args[0], f"{f.value.id}.{f.attr}", strict)
            if strict and len(node.args) > 1:
                name = node.args[1]
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    self.attr_ok(node, name.value)
                else:
                    self.refuse(node, f"{f.value.id}.{f.attr} with a computed name")
        # string conditions of skipif/xfail wherever the mark is made (pytest evaluates them)
        if dotted.endswith(("mark.skipif", "mark.xfail")) and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            self.refuse(node, "a string condition in skipif/xfail (pytest evaluates it with its config in scope)")
        if dotted.endswith("mark.parametrize") and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            for a in re.split(r"[,\s]+", node.args[0].value):
                if a in DENIED_FIXTURES:
                    self.refuse(node, f"the fixture {a} (pytest's config, plugins or reports)")
        if dotted.endswith("patch.object") or dotted.endswith("patch.dict") or dotted.endswith("patch.multiple"):
            if node.args:
                self.check_patch_target(node, node.args[0], dotted)
        if f.attr == "patch" and mod in ("unittest.mock",) and node.args:
            self.check_patch_target(node, node.args[0], dotted)

    def check_patch_target(self, node: ast.Call, target: ast.AST, what: str, strict: bool = False) -> None:
        if isinstance(target, ast.Constant) and isinstance(target.value, str):
            if "." in target.value and not target.value.startswith("solution."):
                self.refuse(node, f"{what} of {target.value} (only solution's own names may be patched)")
            return
        root = self.root(target)
        if isinstance(root, ast.Name) and (self.modules.get(root.id) == "solution" or root.id in self.defined or root.id in ("self", "cls")):
            return
        if not strict and isinstance(root, ast.Name) and root.id not in self.imported and isinstance(target, ast.Name):
            return  # a local dict the test made (setitem/delitem: a store into its own)
        self.refuse(node, f"{what} on {self.dotted(target) or 'an object'} (only solution and the file's own objects may be patched)")

    # -- definitions -----------------------------------------------------------------------
    def visit_FunctionDef(self, node) -> None:
        if node.name.startswith("pytest_"):
            self.refuse(node, f"a pytest hook function {node.name} (pytest's plugin machinery)")
        for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs:
            if a.arg in DENIED_FIXTURES:
                self.refuse(node, f"the fixture {a.arg} (pytest's config, plugins or reports)")
        for d in node.decorator_list:
            self.check_decorator(d)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def check_decorator(self, d: ast.AST) -> None:
        if isinstance(d, ast.Call):
            name = self.dotted(d.func) or ""
            if name.endswith(("mark.skipif", "mark.xfail")) and d.args and isinstance(d.args[0], ast.Constant) and isinstance(d.args[0].value, str):
                self.refuse(d, "a string condition in skipif/xfail (pytest evaluates it with its config in scope)")
            if name.endswith("mark.usefixtures"):
                for a in d.args:
                    if isinstance(a, ast.Constant) and a.value in DENIED_FIXTURES:
                        self.refuse(d, f"the fixture {a.value} (pytest's config, plugins or reports)")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for kw in node.keywords:
            if kw.arg == "metaclass":
                self.refuse(node, "metaclass= (code run when the class is made)")
        for d in node.decorator_list:
            self.check_decorator(d)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            if isinstance(t, ast.Name) and t.id == "pytest_plugins":
                self.refuse(node, "pytest_plugins (loads plugins)")
            if isinstance(t, ast.Name) and t.id == "pytestmark":
                self.check_decorator_list(node.value)
        self.generic_visit(node)

    def check_decorator_list(self, value: ast.AST) -> None:
        for v in (value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]):
            self.check_decorator(v)

    def visit_If(self, node: ast.If) -> None:
        if is_main_block(node):
            # never run under pytest (the module's __name__ is its own, and the file may not rebind it)
            for s in node.orelse:
                self.visit(s)
        else:
            self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            if OS_PATH.search(node.value):
                self.refuse(node, "a path under /proc, /dev or /sys (the process's own files and descriptors)")
            if SQL_DENIED.search(node.value) or node.value.strip().lower() in ("reflect", "java_method", "try_reflect"):
                self.refuse(node, "SQL that runs a script or a Java method in the JVM, or loads code into it")


def is_main_block(node: ast.AST) -> bool:
    """`if __name__ == "__main__":` (its body never runs under pytest)."""
    if not isinstance(node, ast.If):
        return False
    t = node.test
    return (isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == "__name__" and len(t.comparators) == 1
            and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value == "__main__")


def walk(tree: ast.AST):
    """ast.walk, without the bodies of `if __name__ == "__main__":` blocks."""
    todo = [tree]
    while todo:
        n = todo.pop()
        yield n
        if is_main_block(n):
            todo.extend([n.test, *n.orelse])
        else:
            todo.extend(ast.iter_child_nodes(n))


def _mark_type_ok(tree: ast.AST) -> None:
    """Marks `type(x)` calls used in a comparison or for their name (the admitted uses), and the
    function of every call (a builtin named directly as the callee is read with its arguments)."""
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            n.func._lockin_called = True  # type: ignore[attr-defined]
        if isinstance(n, ast.Compare):
            for side in [n.left, *n.comparators]:
                if isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id == "type":
                    side._lockin_type_ok = True  # type: ignore[attr-defined]
        if isinstance(n, ast.Attribute) and n.attr in ("__name__", "__qualname__") and isinstance(n.value, ast.Call):
            c = n.value
            if isinstance(c.func, ast.Name) and c.func.id == "type":
                c._lockin_type_ok = True  # type: ignore[attr-defined]


def _module_level(tree: ast.Module):
    """Statements at module level, the bodies of module-level if/try/with blocks included (a test
    defined under a condition is still the file's), main blocks aside; each with whether it is
    unconditional."""
    todo = [(n, True) for n in tree.body]
    while todo:
        n, sure = todo.pop(0)
        yield n, sure
        if isinstance(n, ast.If) and not is_main_block(n):
            todo.extend((x, False) for x in n.body + n.orelse)
        elif isinstance(n, ast.Try):
            todo.extend((x, False) for x in n.body + n.orelse + n.finalbody + [y for h in n.handlers for y in h.body])
        elif isinstance(n, ast.With):
            todo.extend((x, sure) for x in n.body)


def test_functions(tree: ast.Module) -> tuple[list[str], list[str]]:
    """The test functions pytest would collect from the file, by name ("test_x", "TestC::test_y"),
    read from the tree: `test_*` functions and `test_*` methods of `Test*` classes without
    `__init__` or `__test__ = False` (methods of bases defined in the file included). Returns
    (required, maybe): `required` are defined unconditionally and never rebound or deleted at
    module level; `maybe` are the others, and module-level names bound otherwise (an assignment)."""
    nodes = list(_module_level(tree))
    classes = {n.name: n for n, _ in nodes if isinstance(n, ast.ClassDef)}
    bound: dict[str, int] = {}
    for n, _ in nodes:
        names = []
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [n.name]
        elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Delete)):
            for t in (n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target]):
                names += [x.id for x in ast.walk(t) if isinstance(x, ast.Name)]
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in n.names]
        for name in names:
            bound[name] = bound.get(name, 0) + 1

    def methods(cls: ast.ClassDef, seen: set) -> dict:
        out: dict = {}
        for b in cls.bases:
            if isinstance(b, ast.Name) and b.id in classes and b.id not in seen:
                out.update(methods(classes[b.id], seen | {b.id}))
        for n in cls.body:
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out[n.name] = n
            elif isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__test__" for t in n.targets):
                out["__test__"] = n
        return out

    required, maybe = set(), set()
    for n, sure in nodes:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test"):
            (required if sure and bound.get(n.name) == 1 else maybe).add(n.name)
        elif isinstance(n, ast.ClassDef) and not n.name.startswith("Test") and any((getattr(b, "id", None) or getattr(b, "attr", "")).endswith("TestCase") for b in n.bases):
            maybe.update(f"{n.name}::{m}" for m in methods(n, {n.name}) if m.startswith("test"))
        elif isinstance(n, ast.ClassDef) and n.name.startswith("Test"):
            ms = methods(n, {n.name})
            if "__init__" in ms or "__test__" in ms:
                continue
            for m in ms:
                if m.startswith("test"):
                    (required if sure and bound.get(n.name) == 1 else maybe).add(f"{n.name}::{m}")
        elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)):
            maybe.update(x for x in bound if x.startswith("test"))
    return sorted(required), sorted(maybe - required)


def check_text(text: str) -> dict:
    """Checks one file's text. Returns {"refusals": [...], "tests": [...]} or {"syntaxError": ...,
    "refusals": [], "tests": []} when it does not parse (pytest then fails to collect it)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        return {"syntaxError": f"{type(exc).__name__}: {exc}", "refusals": [], "tests": []}
    c = Checker(text)
    for n in walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            c.defined.add(n.name)
        if isinstance(n, ast.ClassDef):
            c.classes.add(n.name)
    for n in walk(tree):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, (ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr)) else []
        value = getattr(n, "value", None)
        for t in targets:
            for name in ast.walk(t):
                if isinstance(name, ast.Name):
                    ok = isinstance(n, (ast.Assign, ast.AnnAssign)) and t is name and isinstance(value, ast.Constant) and isinstance(value.value, str)
                    c.strings.setdefault(name.id, []).append(value.value if ok else None)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for a in n.args.args + n.args.kwonlyargs + n.args.posonlyargs:
                c.strings.setdefault(a.arg, []).append(None)
    # imports first, wherever they are, so that every use is read against them
    for n in walk(tree):
        if isinstance(n, ast.Import):
            c.visit_Import(n)
        elif isinstance(n, ast.ImportFrom):
            c.visit_ImportFrom(n)
    import_refusals = list(c.refusals)
    c.refusals = []
    _mark_type_ok(tree)
    for n in tree.body:
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            continue
        c.visit(n)
    refusals = import_refusals + [r for r in c.refusals]
    seen = set()
    unique = []
    for r in sorted(refusals, key=lambda r: r["line"]):
        key = r["line"]  # one refusal a line: the first found
        if key not in seen:
            seen.add(key)
            unique.append(r)
    required, maybe = test_functions(tree)
    return {"refusals": unique, "tests": required, "maybeTests": maybe}


def main(argv: list[str]) -> None:
    out = {}
    for path in argv:
        name = path.rsplit("/", 1)[-1]
        try:
            with open(path, "r", encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            out[name] = {"refusals": [{"line": 0, "what": f"an unreadable file ({type(exc).__name__})", "text": ""}], "tests": []}
            continue
        out[name] = check_text(text)
    sys.stdout.write(json.dumps({"files": out}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
