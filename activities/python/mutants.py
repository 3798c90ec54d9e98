"""Mutants of a gold solution: small, single-site changes of a PySpark `solve(spark, tables)`
that a good test suite should notice (mutation analysis of the model-written suites).

Pure generator: standard library `ast` only, no Spark. Each mutant changes exactly ONE site of
the gold source and is written back with `ast.unparse` (comments and layout are not kept; the
gold itself, unparsed, is the baseline: a mutant whose text equals it is dropped). Every mutant
is checked with `compile()`. The join operators (`join-type`, `semi-join`, `anti-join`) take
every site, so that every join of a gold is mutated (lock-in happens at joins: an EXISTS that
became an inner join is the classic duplicated-match defect). Every other operator takes at most
`max_per_operator` sites, spread across the file deterministically (1 site: the first; 2: the
first and the last; k: evenly spaced indices round(i * (n - 1) / (k - 1)) over the n sites in
source order). Mutant ids are
`<operator>-<k>`, k = 1.. in source order; `line` is the site's line in the ORIGINAL gold file.

`F` below is any name the file binds to `pyspark.sql.functions` (`from pyspark.sql import
functions as F`, `from pyspark.sql import DataFrame, functions as F`, `import
pyspark.sql.functions as F`, or the dotted `pyspark.sql.functions.<fn>`); a function imported by
name (`from pyspark.sql.functions import sum`) is matched too, and replaced by `F.<target>` when
the file also has a module alias.

Operators (their names are part of the data format: mutants.json, equivalence.json):

join-type
    A DataFrame `.join(other, on, how)`, with `how` as the 3rd positional argument or `how=`:
    inner -> left; left/left_outer/leftouter -> inner; right/right_outer/rightouter -> inner;
    full/outer/full_outer/fullouter -> inner; left_semi/leftsemi/semi -> left_anti;
    left_anti/leftanti/anti -> left_semi. A join with a condition and no `how` (inner) gets
    `how="left"`. Joins without a condition (cross joins), a `how` that is not a string
    constant, `"sep".join(...)` and `os.path.join(...)` are left alone.
semi-join
    A DataFrame join with how `left_semi`/`leftsemi`/`semi` (an EXISTS or IN subquery) -> how
    `inner`: a left row matching k right rows now appears k times, with the right side's columns
    (the duplicated-match defect of writing a semi join as an inner join).
anti-join
    A DataFrame join with how `left_anti`/`leftanti`/`anti` (a NOT EXISTS or NOT IN subquery) ->
    how `left`: a left outer join without the null filter, so matched left rows stay (once per
    match) instead of being removed.
price-column
    A TPC-DS money column named by an attribute (`ss.ss_ext_sales_price`) or by a string
    constant (`"ss_ext_sales_price"`, also inside F.col/F.sum/...) gets a sibling column of the
    same table prefix, by suffix: sales_price <-> list_price, ext_sales_price <-> ext_list_price,
    net_paid -> net_paid_inc_tax, net_paid_inc_tax -> net_paid, net_profit -> net_paid,
    ext_discount_amt -> ext_sales_price, coupon_amt -> ext_discount_amt,
    wholesale_cost -> list_price, ext_wholesale_cost -> ext_list_price,
    return_amt -> return_amt_inc_tax, return_amount -> return_amt_inc_tax, net_loss -> fee,
    return_amt_inc_tax -> return_amt. Only when the new name is a known table column.
    Docstrings and f-string fragments are not sites.
aggregate-function
    `F.sum` -> `F.avg`, `F.avg`/`F.mean` -> `F.sum`, `F.min` -> `F.max`, `F.max` -> `F.min`
    (aggregations and window aggregates alike). `F.count` is never changed.
filter-bound
    (a) a comparison `<`, `<=`, `>`, `>=` with a numeric constant on one side (an int/float,
    a negated one, `Decimal("...")`, or `F.lit(...)` of one of these) or an ISO date string
    ("2000-01-31"): `<` <-> `<=`, `>` <-> `>=` (one operator of the comparison per site);
    (b) an int constant anywhere inside the arguments of `.between(...)`, `.filter(...)` or
    `.where(...)`: +1; (c) an int argument of `datetime.date(y, m, d)`: year +1, month or day +1
    only when the result is still a valid date.
distinct
    `.distinct()`, `.dropDuplicates(...)`, `.drop_duplicates(...)` dropped (`x.distinct()` -> `x`);
    `F.countDistinct(c)` / `F.count_distinct(c)` (one column) -> `F.count(c)`.
alias-rename
    For each output column name N (task.yaml `output.columns[].name`) that is not a table
    column: every string constant equal to N, compared case-insensitively (alias arguments,
    F.col arguments, orderBy/select strings, withColumn names, ...), becomes N + "_x", and a
    qualified "t.N" becomes "t.N_x", all in one mutant so it still runs. Table lookups `tables["..."]`, docstrings and f-string
    fragments are not renamed. One site per output name, at its first occurrence.
    Computed names: an `.alias(f"...")` whose f-string has a constant part with a letter or
    digit, none of which occurs inside any other string of the file (plain or f-string part),
    gets "_x" appended to the f-string: a name built at run time (q2's seven ratio columns) is
    renamed where no other code can refer to it. One site per such alias call.
decimal-cast
    (a) every `DecimalType(p, s)` call (inside `.cast(...)` or bound to a constant such as
    `DEC = DecimalType(12, 2)`) and every `.cast("decimal(p,s)")`: scale s+1, precision p+1 so
    the integral digits stay the same (at most 38; left alone when s+1 > 38);
    (b) only when the file has no (a) site: `F.sum(...)`/`F.avg(...)`/`F.mean(...)` directly
    followed by `.alias(name)` gets `.cast("double")` inserted before the alias.
rollup
    `.rollup(...)` / `.cube(...)` -> `.groupBy(...)`.

CLI:
    python mutants.py generate --gold PATH --table-columns JSON_FILE --output-columns a,b,c
        [--output-columns-json JSON_FILE] --max-per-operator 2 --out DIR
writes DIR/<id>/solution.py and DIR/mutants.json (a list of {id, operator, line, description};
old `<operator>-<k>` folders in DIR are removed first) and prints ONE JSON line {"mutants": n}.
The table-columns file holds a JSON list of column names or {table: [column names]}.
"""
from __future__ import annotations

import argparse
import ast
import copy
import datetime
import json
import os
import re
import shutil
import sys
from dataclasses import asdict, dataclass
from typing import Callable, Iterable

#: The operators in the order mutants are listed.
OPERATORS = (
    "join-type",
    "semi-join",
    "anti-join",
    "price-column",
    "aggregate-function",
    "filter-bound",
    "distinct",
    "alias-rename",
    "decimal-cast",
    "rollup",
)

JOIN_SWAP = {
    "inner": "left",
    "left": "inner", "left_outer": "inner", "leftouter": "inner",
    "right": "inner", "right_outer": "inner", "rightouter": "inner",
    "full": "inner", "outer": "inner", "full_outer": "inner", "fullouter": "inner",
    "left_semi": "left_anti", "leftsemi": "left_anti", "semi": "left_anti",
    "left_anti": "left_semi", "leftanti": "left_semi", "anti": "left_semi",
}

PRICE_SWAP = {
    "sales_price": "list_price",
    "list_price": "sales_price",
    "ext_sales_price": "ext_list_price",
    "ext_list_price": "ext_sales_price",
    "net_paid": "net_paid_inc_tax",
    "net_paid_inc_tax": "net_paid",
    "net_profit": "net_paid",
    "ext_discount_amt": "ext_sales_price",
    "coupon_amt": "ext_discount_amt",
    "wholesale_cost": "list_price",
    "ext_wholesale_cost": "ext_list_price",
    "return_amt": "return_amt_inc_tax",
    "return_amount": "return_amt_inc_tax",
    "net_loss": "fee",
    "return_amt_inc_tax": "return_amt",
}

#: Operators that take every site (see the module docstring), whatever max_per_operator is.
ALL_SITES = frozenset({"join-type", "semi-join", "anti-join"})

SEMI_HOWS = {"left_semi", "leftsemi", "semi"}
ANTI_HOWS = {"left_anti", "leftanti", "anti"}

AGG_SWAP = {"sum": "avg", "avg": "sum", "mean": "sum", "min": "max", "max": "min"}

FUNCTIONS_MODULE = "pyspark.sql.functions"
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DECIMAL_RE = re.compile(r"^\s*decimal\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*$", re.IGNORECASE)
MUTANT_DIR_RE = re.compile(r"^[a-z]+(?:-[a-z]+)*-\d+$")


@dataclass
class Mutant:
    """One mutant: `id` = "<operator>-<k>", the operator name, the 1-based line of the mutated
    site in the original source, a one-line description, and the full mutated source."""

    id: str
    operator: str
    line: int
    description: str
    source: str


@dataclass
class Site:
    """One place an operator can change: where it is, what the change is, and how to apply it
    (a closure that mutates the tree the site was found in)."""

    line: int
    order: tuple
    description: str
    apply: Callable[[], None]


class Context:
    """What the site finders know about one parsed file: parent links, the names bound to
    pyspark.sql.functions, functions imported from it by name, and the column lists."""

    def __init__(self, tree: ast.AST, table_columns: set[str], output_columns: list[str]):
        self.tree = tree
        self.table_columns = set(table_columns)
        self.table_columns_lower = {c.lower() for c in table_columns}
        self.output_columns = list(output_columns)
        self.parents: dict[int, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
        self.f_aliases: set[str] = set()
        self.f_direct: dict[str, str] = {}  # local name -> pyspark.sql.functions name
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "pyspark.sql":
                for a in node.names:
                    if a.name == "functions":
                        self.f_aliases.add(a.asname or a.name)
            elif isinstance(node, ast.ImportFrom) and node.module == FUNCTIONS_MODULE:
                for a in node.names:
                    self.f_direct[a.asname or a.name] = a.name
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == FUNCTIONS_MODULE and a.asname:
                        self.f_aliases.add(a.asname)
        self.f_name = sorted(self.f_aliases)[0] if self.f_aliases else None

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def is_functions_module(self, node: ast.AST) -> bool:
        """True for `F` (an alias of pyspark.sql.functions) or the dotted module path."""
        if isinstance(node, ast.Name):
            return node.id in self.f_aliases
        return isinstance(node, ast.Attribute) and ast.unparse(node) == FUNCTIONS_MODULE

    def functions_call(self, node: ast.AST) -> str | None:
        """The pyspark.sql.functions name a call invokes (`F.sum(...)` -> "sum"), else None."""
        if not isinstance(node, ast.Call):
            return None
        f = node.func
        if isinstance(f, ast.Attribute) and self.is_functions_module(f.value):
            return f.attr
        if isinstance(f, ast.Name) and f.id in self.f_direct:
            return self.f_direct[f.id]
        return None

    def set_functions_call(self, call: ast.Call, target: str) -> bool:
        """Points a functions call at `target`; False when it cannot be expressed."""
        f = call.func
        if isinstance(f, ast.Attribute):
            f.attr = target
            return True
        local = next((k for k, v in self.f_direct.items() if v == target), None)
        if local:
            call.func = ast.Name(id=local, ctx=ast.Load())
            return True
        if self.f_name:
            call.func = ast.Attribute(value=ast.Name(id=self.f_name, ctx=ast.Load()), attr=target, ctx=ast.Load())
            return True
        return False

    def is_plain_string(self, node: ast.AST) -> bool:
        """A string constant that is not a docstring/expression statement and not an f-string part."""
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            return False
        p = self.parent(node)
        return not isinstance(p, (ast.Expr, ast.JoinedStr, ast.FormattedValue))

    def is_tables_lookup(self, node: ast.AST) -> bool:
        """`tables["store_sales"]`: the string is a table name, never a column."""
        p = self.parent(node)
        return (isinstance(p, ast.Subscript) and p.slice is node and isinstance(p.value, ast.Name)
                and p.value.id == "tables")


def _pos(node: ast.AST) -> tuple:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _method_pos(call: ast.Call) -> tuple:
    """Where a method call's name ends (`.join` of `a.join(b).join(c)`): chained calls in source order."""
    return (call.func.end_lineno or call.lineno, call.func.end_col_offset or 0)


def _replace(ctx: Context, node: ast.AST, new: ast.AST) -> None:
    """Puts `new` where `node` is in its parent."""
    parent = ctx.parent(node)
    for field, value in ast.iter_fields(parent):
        if value is node:
            setattr(parent, field, new)
            return
        if isinstance(value, list):
            for i, v in enumerate(value):
                if v is node:
                    value[i] = new
                    return
    raise ValueError("node not found in its parent")


def _method_calls(tree: ast.AST, names: Iterable[str]) -> list[ast.Call]:
    wanted = set(names)
    return [n for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in wanted]


# --------------------------------------------------------------------------- join-type

def _dataframe_joins(ctx: Context) -> list[tuple[ast.Call, ast.AST | None, bool]]:
    """Every DataFrame `.join(...)` call as (call, its `how` node or None, whether it has a
    condition); `"sep".join(...)` and `os.path.join(...)` are left out."""
    out = []
    for call in _method_calls(ctx.tree, ["join"]):
        recv = call.func.value
        if isinstance(recv, (ast.Constant, ast.JoinedStr)):
            continue  # "sep".join(...)
        if (isinstance(recv, ast.Name) and recv.id in ("os", "path", "posixpath")) or \
                (isinstance(recv, ast.Attribute) and recv.attr == "path"):
            continue  # os.path.join(...)
        kw = {k.arg: k for k in call.keywords if k.arg}
        has_on = len(call.args) >= 2 or "on" in kw
        how_node = call.args[2] if len(call.args) >= 3 else (kw["how"].value if "how" in kw else None)
        out.append((call, how_node, has_on))
    return out


def _join_sites(ctx: Context) -> list[Site]:
    sites = []
    for call, how_node, has_on in _dataframe_joins(ctx):
        if how_node is None:
            if not has_on:
                continue  # no condition: a cross join
            def add_how(call=call):
                call.keywords.append(ast.keyword(arg="how", value=ast.Constant("left")))
            sites.append(Site(_method_pos(call)[0], _method_pos(call), 'join how (default "inner") -> "left"', add_how))
            continue
        if not (isinstance(how_node, ast.Constant) and isinstance(how_node.value, str)):
            continue
        old = how_node.value
        new = JOIN_SWAP.get(old.lower())
        if new is None:
            continue

        def set_how(node=how_node, new=new):
            node.value = new
        sites.append(Site(how_node.lineno, _method_pos(call), f'join how "{old}" -> "{new}"', set_how))
    return sites


def _how_sites(ctx: Context, hows: set[str], new: str, why: str) -> list[Site]:
    """Joins whose `how` is a string constant in `hows` get `new` instead."""
    sites = []
    for call, how_node, _has_on in _dataframe_joins(ctx):
        if not (isinstance(how_node, ast.Constant) and isinstance(how_node.value, str)) or how_node.value.lower() not in hows:
            continue
        old = how_node.value

        def set_how(node=how_node):
            node.value = new
        sites.append(Site(how_node.lineno, _method_pos(call), f'join how "{old}" -> "{new}" ({why})', set_how))
    return sites


def _semi_sites(ctx: Context) -> list[Site]:
    return _how_sites(ctx, SEMI_HOWS, "inner", "EXISTS/IN subquery as an inner join: matches duplicate rows")


def _anti_sites(ctx: Context) -> list[Site]:
    return _how_sites(ctx, ANTI_HOWS, "left", "NOT EXISTS/NOT IN as a left outer join: matched rows kept")


# --------------------------------------------------------------------------- price-column

def _price_swap(name: str, table_columns: set[str]) -> str | None:
    if "_" not in name:
        return None
    prefix, rest = name.split("_", 1)
    target = PRICE_SWAP.get(rest)
    if target is None:
        return None
    new = f"{prefix}_{target}"
    return new if new in table_columns else None


def _price_sites(ctx: Context) -> list[Site]:
    sites = []
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Attribute):
            new = _price_swap(node.attr, ctx.table_columns)
            if new:
                def set_attr(node=node, new=new):
                    node.attr = new
                sites.append(Site(node.end_lineno or node.lineno, _pos(node),
                                  f"{node.attr} -> {new} (attribute)", set_attr))
        elif ctx.is_plain_string(node) and not ctx.is_tables_lookup(node):
            new = _price_swap(node.value, ctx.table_columns)
            if new:
                def set_str(node=node, new=new):
                    node.value = new
                sites.append(Site(node.lineno, _pos(node), f'"{node.value}" -> "{new}"', set_str))
    return sites


# --------------------------------------------------------------------------- aggregate-function

def _aggregate_sites(ctx: Context) -> list[Site]:
    sites = []
    for node in ast.walk(ctx.tree):
        fn = ctx.functions_call(node)
        if fn not in AGG_SWAP:
            continue
        new = AGG_SWAP[fn]
        if isinstance(node.func, ast.Name) and new not in ctx.f_direct.values() and not ctx.f_name:
            continue

        def swap(node=node, new=new):
            ctx.set_functions_call(node, new)
        sites.append(Site(node.lineno, _pos(node), f"F.{fn} -> F.{new}", swap))
    return sites


# --------------------------------------------------------------------------- filter-bound

_OP_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
_OP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_bound_constant(ctx: Context, node: ast.AST) -> bool:
    """A numeric constant (int/float, -x, Decimal("..."), F.lit(...) of those) or an ISO date string."""
    if isinstance(node, ast.Constant):
        return _is_number(node.value) or (isinstance(node.value, str) and bool(DATE_RE.match(node.value)))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return isinstance(node.operand, ast.Constant) and _is_number(node.operand.value)
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        f = node.func
        is_decimal = (isinstance(f, ast.Name) and f.id == "Decimal") or (isinstance(f, ast.Attribute) and f.attr == "Decimal")
        if is_decimal:
            return isinstance(node.args[0], (ast.Constant, ast.UnaryOp))
        if ctx.functions_call(node) == "lit":
            return _is_bound_constant(ctx, node.args[0])
    return False


def _is_date_call(node: ast.AST) -> bool:
    """`datetime.date(...)` (or `date(...)` imported from datetime)."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr == "date" and isinstance(f.value, ast.Name) and f.value.id == "datetime") \
        or (isinstance(f, ast.Name) and f.id == "date")


def _filter_sites(ctx: Context) -> list[Site]:
    sites = []
    # (a) comparison operators next to a constant.
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Compare):
            continue
        for i, op in enumerate(node.ops):
            if type(op) not in _OP_SWAP:
                continue
            left = node.left if i == 0 else node.comparators[i - 1]
            right = node.comparators[i]
            if not (_is_bound_constant(ctx, left) or _is_bound_constant(ctx, right)):
                continue
            new_op = _OP_SWAP[type(op)]

            def swap(node=node, i=i, new_op=new_op):
                node.ops[i] = new_op()
            sites.append(Site(right.lineno, (*_pos(right), 0),
                              f"{_OP_TEXT[type(op)]} -> {_OP_TEXT[new_op]} in {ast.unparse(node)[:80]}", swap))
    # (c) datetime.date arguments.
    seen: set[int] = set()
    for call in ast.walk(ctx.tree):
        if not _is_date_call(call) or call.keywords or len(call.args) != 3:
            continue
        if not all(isinstance(a, ast.Constant) and _is_number(a.value) and isinstance(a.value, int) for a in call.args):
            continue
        ymd = [a.value for a in call.args]
        for k, part in enumerate(("year", "month", "day")):
            seen.add(id(call.args[k]))
            trial = list(ymd)
            trial[k] += 1
            try:
                datetime.date(*trial)
            except ValueError:
                continue
            arg = call.args[k]

            def bump(arg=arg):
                arg.value += 1
            sites.append(Site(arg.lineno, (*_pos(arg), 1),
                              f"datetime.date {part} {ymd[k]} -> {ymd[k] + 1} in {ast.unparse(call)}", bump))
    # (b) int constants in .between/.filter/.where arguments.
    # Innermost calls first (ast.walk is breadth-first), so a constant is described by its nearest call.
    for call in reversed(_method_calls(ctx.tree, ["between", "filter", "where"])):
        roots = list(call.args) + [k.value for k in call.keywords]
        for root in roots:
            for n in ast.walk(root):
                if id(n) in seen or _is_date_call(n):
                    if _is_date_call(n):
                        seen.update(id(a) for a in n.args)
                    continue
                if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
                    seen.add(id(n))

                    def bump(n=n):
                        n.value += 1
                    sites.append(Site(n.lineno, (*_pos(n), 1),
                                      f"{n.value} -> {n.value + 1} in .{call.func.attr}(...)", bump))
    return sites


# --------------------------------------------------------------------------- distinct

def _distinct_sites(ctx: Context) -> list[Site]:
    sites = []
    for call in _method_calls(ctx.tree, ["distinct", "dropDuplicates", "drop_duplicates"]):
        if ctx.is_functions_module(call.func.value):
            continue

        def drop(call=call):
            _replace(ctx, call, call.func.value)
        sites.append(Site(_method_pos(call)[0], _method_pos(call), f"drop .{call.func.attr}()", drop))
    for node in ast.walk(ctx.tree):
        fn = ctx.functions_call(node)
        if fn in ("countDistinct", "count_distinct") and len(node.args) == 1 and not node.keywords:
            def to_count(node=node):
                ctx.set_functions_call(node, "count")
            sites.append(Site(node.lineno, _pos(node), f"F.{fn} -> F.count", to_count))
    return sites


# --------------------------------------------------------------------------- alias-rename

def _alias_sites(ctx: Context) -> list[Site]:
    sites = []
    done: set[str] = set()
    strings = sorted((n for n in ast.walk(ctx.tree) if ctx.is_plain_string(n) and not ctx.is_tables_lookup(n)), key=_pos)
    for name in ctx.output_columns:
        key = name.lower()
        if not name or key in done or key in ctx.table_columns_lower:
            continue
        done.add(key)
        qualified = re.compile(r"^([A-Za-z_]\w*\.)?" + re.escape(key) + "$", re.IGNORECASE)
        hits = [n for n in strings if qualified.match(n.value)]
        if not hits:
            continue
        new = name + "_x"

        def rename(hits=hits, new=new, qualified=qualified):
            for n in hits:
                n.value = (qualified.match(n.value).group(1) or "") + new
        sites.append(Site(hits[0].lineno, _pos(hits[0]),
                          f'output column "{name}" -> "{new}" ({len(hits)} string{"s" if len(hits) != 1 else ""})', rename))
    sites.extend(_computed_alias_sites(ctx))
    return sites


def _fstring_parts(node: ast.JoinedStr) -> list[str]:
    return [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]


def _computed_alias_sites(ctx: Context) -> list[Site]:
    """`.alias(f"...")` calls whose constant text no other string of the file contains."""
    fstrings = [n for n in ast.walk(ctx.tree) if isinstance(n, ast.JoinedStr)]
    plain = [n.value for n in ast.walk(ctx.tree) if ctx.is_plain_string(n)]
    sites = []
    for call in _method_calls(ctx.tree, ["alias"]):
        if len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.JoinedStr):
            continue
        js = call.args[0]
        words = [p for p in _fstring_parts(js) if re.search(r"[A-Za-z0-9]", p)]
        if not words:
            continue
        others = plain + [p for f in fstrings if f is not js for p in _fstring_parts(f)]
        if any(w in o for w in words for o in others):
            continue
        before = ast.unparse(js)

        def append_x(js=js):
            last = js.values[-1] if js.values else None
            if isinstance(last, ast.Constant) and isinstance(last.value, str):
                last.value += "_x"
            else:
                js.values.append(ast.Constant("_x"))
        sites.append(Site(js.lineno, _pos(js), f"computed output name {before} -> + \"_x\"", append_x))
    return sites


# --------------------------------------------------------------------------- decimal-cast

def _bump_decimal(p: int, s: int) -> tuple[int, int] | None:
    if s + 1 > 38:
        return None
    return min(p + 1, 38), s + 1


def _decimal_sites(ctx: Context) -> list[Site]:
    sites = []
    for node in ast.walk(ctx.tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if (isinstance(f, ast.Name) and f.id == "DecimalType") or (isinstance(f, ast.Attribute) and f.attr == "DecimalType"):
            args = list(node.args)
            kw = {k.arg: k for k in node.keywords}
            p_node = args[0] if len(args) >= 1 else (kw["precision"].value if "precision" in kw else None)
            s_node = args[1] if len(args) >= 2 else (kw["scale"].value if "scale" in kw else None)
            if not all(isinstance(x, ast.Constant) and isinstance(x.value, int) for x in (p_node, s_node)):
                continue
            bumped = _bump_decimal(p_node.value, s_node.value)
            if not bumped:
                continue

            def set_type(p_node=p_node, s_node=s_node, bumped=bumped):
                p_node.value, s_node.value = bumped
            sites.append(Site(node.lineno, _pos(node),
                              f"DecimalType({p_node.value}, {s_node.value}) -> DecimalType({bumped[0]}, {bumped[1]})", set_type))
        elif isinstance(f, ast.Attribute) and f.attr == "cast" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            m = DECIMAL_RE.match(node.args[0].value)
            if not m:
                continue
            p, s = int(m.group(1)), int(m.group(2))
            bumped = _bump_decimal(p, s)
            if not bumped:
                continue
            arg = node.args[0]

            def set_str(arg=arg, bumped=bumped):
                arg.value = f"decimal({bumped[0]},{bumped[1]})"
            sites.append(Site(arg.lineno, _pos(arg), f'cast "{arg.value}" -> "decimal({bumped[0]},{bumped[1]})"', set_str))
    if sites:
        return sites
    for call in _method_calls(ctx.tree, ["alias"]):
        inner = call.func.value
        fn = ctx.functions_call(inner)
        if fn not in ("sum", "avg", "mean"):
            continue

        def add_cast(call=call, inner=inner):
            call.func.value = ast.Call(func=ast.Attribute(value=inner, attr="cast", ctx=ast.Load()),
                                       args=[ast.Constant("double")], keywords=[])
        alias = ast.unparse(call.args[0]) if call.args else ""
        sites.append(Site(inner.lineno, _pos(inner), f'F.{fn}(...) -> F.{fn}(...).cast("double") before .alias({alias})', add_cast))
    return sites


# --------------------------------------------------------------------------- rollup

def _rollup_sites(ctx: Context) -> list[Site]:
    sites = []
    for call in _method_calls(ctx.tree, ["rollup", "cube"]):
        if ctx.is_functions_module(call.func.value):
            continue

        def to_group(call=call):
            call.func.attr = "groupBy"
        sites.append(Site(_method_pos(call)[0], _method_pos(call), f".{call.func.attr}(...) -> .groupBy(...)", to_group))
    return sites


FINDERS: dict[str, Callable[[Context], list[Site]]] = {
    "join-type": _join_sites,
    "semi-join": _semi_sites,
    "anti-join": _anti_sites,
    "price-column": _price_sites,
    "aggregate-function": _aggregate_sites,
    "filter-bound": _filter_sites,
    "distinct": _distinct_sites,
    "alias-rename": _alias_sites,
    "decimal-cast": _decimal_sites,
    "rollup": _rollup_sites,
}


# --------------------------------------------------------------------------- generation

def spread(n: int, k: int) -> list[int]:
    """Indices of k of n items spread across them: first, last, then evenly between (deterministic)."""
    k = min(n, k)
    if k <= 0:
        return []
    if k == 1:
        return [0]
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


def _sites(source: str, operator: str, table_columns: set[str], output_columns: list[str]) -> tuple[ast.AST, list[Site]]:
    tree = ast.parse(source)
    ctx = Context(tree, table_columns, output_columns)
    sites = FINDERS[operator](ctx)
    sites.sort(key=lambda s: s.order)
    return tree, sites


def _compiles(source: str) -> bool:
    try:
        compile(source, "solution.py", "exec")
        return True
    except (SyntaxError, ValueError):
        return False


def generate(source: str, table_columns: set[str], output_columns: list[str], max_per_operator: int = 2) -> list[Mutant]:
    """Generates the mutants of one gold solution.

    Inputs: the gold source text; the known table column names (price-column targets must be
    among them; alias-rename skips output names that are table columns); the task's output
    column names; the largest number of mutants per operator (the join operators of
    ALL_SITES take every site).
    Returns: mutants, operators in OPERATORS order, each operator's in source order, ids
    "<operator>-<k>". Every source compiles and differs from the unparsed gold.
    Raises: SyntaxError when the gold does not parse. Rules: the module docstring.
    """
    baseline = ast.unparse(ast.parse(source))
    out: list[Mutant] = []
    for op in OPERATORS:
        _, sites = _sites(source, op, table_columns, output_columns)
        candidates = []  # (site index, line, description, mutated source)
        seen_sources = set()
        for i in range(len(sites)):
            tree, fresh = _sites(source, op, table_columns, output_columns)
            site = fresh[i]
            site.apply()
            ast.fix_missing_locations(tree)
            text = ast.unparse(tree)
            if text == baseline or text in seen_sources or not _compiles(text):
                continue
            seen_sources.add(text)
            candidates.append((site.line, site.description, text))
        chosen = range(len(candidates)) if op in ALL_SITES else spread(len(candidates), max_per_operator)
        for k, idx in enumerate(chosen, start=1):
            line, desc, text = candidates[idx]
            out.append(Mutant(id=f"{op}-{k}", operator=op, line=line, description=desc, source=text + "\n"))
    return out


# --------------------------------------------------------------------------- CLI

def _read_table_columns(path: str) -> set[str]:
    with open(path, encoding="utf-8") as fh:
        value = json.load(fh)
    if isinstance(value, dict):
        return {c for cols in value.values() for c in cols}
    if isinstance(value, list):
        return set(value)
    raise ValueError(f"{path}: expected a JSON list of column names or {{table: [columns]}}")


def write_mutants(mutants: list[Mutant], out_dir: str) -> None:
    """Writes `<out_dir>/<id>/solution.py` per mutant and `<out_dir>/mutants.json`, after
    removing mutant folders of an earlier run."""
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):
        full = os.path.join(out_dir, name)
        if os.path.isdir(full) and MUTANT_DIR_RE.match(name) and name.rsplit("-", 1)[0] in OPERATORS:
            shutil.rmtree(full)
    for m in mutants:
        d = os.path.join(out_dir, m.id)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "solution.py"), "w", encoding="utf-8") as fh:
            fh.write(m.source)
    listing = [{k: v for k, v in asdict(m).items() if k != "source"} for m in mutants]
    tmp = os.path.join(out_dir, "mutants.json.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(listing, fh, indent=2)
        fh.write("\n")
    os.replace(tmp, os.path.join(out_dir, "mutants.json"))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="write the mutants of one gold solution")
    g.add_argument("--gold", required=True, help="the gold solution.py")
    g.add_argument("--table-columns", required=True, help="JSON file: [columns] or {table: [columns]}")
    g.add_argument("--output-columns", default="", help="output column names, comma-separated")
    g.add_argument("--output-columns-json", help="JSON file with a list of output column names (names with commas)")
    g.add_argument("--max-per-operator", type=int, default=2)
    g.add_argument("--out", required=True, help="folder for <id>/solution.py and mutants.json")
    args = ap.parse_args(argv)
    try:
        with open(args.gold, encoding="utf-8") as fh:
            source = fh.read()
        table_columns = _read_table_columns(args.table_columns)
        if args.output_columns_json:
            with open(args.output_columns_json, encoding="utf-8") as fh:
                output_columns = [str(c) for c in json.load(fh)]
        else:
            output_columns = [c for c in args.output_columns.split(",") if c]
        mutants = generate(source, table_columns, output_columns, args.max_per_operator)
    except (OSError, ValueError, SyntaxError) as exc:
        print(f"mutants.py: {exc}", file=sys.stderr)
        return 2
    write_mutants(mutants, args.out)
    print(json.dumps({"mutants": len(mutants)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
