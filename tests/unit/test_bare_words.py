"""No bare termination, game-status or claim word outside the vocabulary (issue 26's acceptance: "no bare
termination or status strings outside the vocabulary module (a test greps for them)").

The product's code names ``Termination.TIME_FORFEIT``, ``GameStatus.ENDED``, ``ClaimKind.THREEFOLD``
(``services/events/vocabulary.py``), never ``"time_forfeit"``, ``"ended"`` or ``"threefold"``: a word
spelt twice drifts (``"fifty_move"`` against ``"fifty_moves"``), a member cannot.

What counts as a bare word (read from the code's syntax tree, so comments and docstrings do not count):

- a string constant that is a termination or claim word found nowhere else in the domain
  (``"checkmate"``, ``"time_forfeit"``, ``"threefold"``, ...), wherever it stands;
- one of the words that are also field names or other words (``"arbiter"``, ``"forfeit"``,
  ``"late_start"``, ``"recorded"``; the statuses ``"waiting"``, ``"playing"``, ``"ended"``) when the
  statement it stands in is about a termination or a status (it names ``termination``, ``status`` or
  ``.ended``);

but not a dictionary key, a subscript or the key of ``.get``/``.pop`` (a field called ``"forfeit"``
or ``"arbiter"``), nor a name in ``__all__``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from services.events.vocabulary import ClaimKind, GameStatus, Termination

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("services", "gateway", "dashboard", "devices", "venue")
VOCABULARY = ROOT / "services" / "events" / "vocabulary.py"
SHARED = {Termination.ARBITER, Termination.FORFEIT, Termination.LATE_START, Termination.RECORDED, ClaimKind.UNNAMED}
DISTINCT = ({t.value for t in Termination} | {c.value for c in ClaimKind}) - {w.value for w in SHARED}
IN_CONTEXT = {w.value for w in SHARED} | {s.value for s in GameStatus}
CONTEXT = re.compile(r"\btermination\b|\bstatus\b|\.ended\b")
KEY_CALLS = {"get", "pop", "setdefault"}


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _excluded(tree: ast.AST) -> set[int]:
    """ids of constants that are docstrings, dictionary keys, subscripts, ``.get`` keys or ``__all__``."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            out.add(id(body[0].value))
        if isinstance(node, ast.Dict):
            out.update(id(k) for k in node.keys if k is not None)
        elif isinstance(node, ast.Subscript):
            out.add(id(node.slice))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in KEY_CALLS \
                and node.args:
            out.add(id(node.args[0]))
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            out.update(id(c) for c in ast.walk(node.value))
    return out


def _statement_text(source: str, node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    """The source of the simple statement ``node`` stands in; for a compound statement (if, for,
    while, with, def) only the header expression holding it."""
    prev = node
    parent = parents.get(node)
    while parent is not None and not isinstance(parent, ast.stmt):
        prev, parent = parent, parents.get(parent)
    if parent is None:
        return ""
    if hasattr(parent, "body"):
        return ast.get_source_segment(source, prev) or ""
    return ast.get_source_segment(source, parent) or ""


def bare_words(path: Path) -> list[str]:
    """``"path:line: word"`` for each bare vocabulary word in the file at ``path``."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    parents, excluded = _parents(tree), _excluded(tree)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in excluded:
            continue
        word = node.value
        if word in DISTINCT or (word in IN_CONTEXT and CONTEXT.search(_statement_text(source, node, parents))):
            where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            found.append(f"{where}:{node.lineno}: {word!r}")
    return found


def product_files() -> list[Path]:
    return sorted(p for folder in PRODUCT for p in (ROOT / folder).rglob("*.py") if p != VOCABULARY)


def test_no_bare_termination_status_or_claim_word_in_the_product():
    found = [hit for path in product_files() for hit in bare_words(path)]
    assert not found, "name the vocabulary's member (services/events/vocabulary.py):\n" + "\n".join(found)


def test_the_check_finds_the_words_it_is_about(tmp_path):
    # the check itself on a file made for it: each kind of bare word is found, each kind of allowed use is not
    sample = tmp_path / "sample.py"
    sample.write_text(
        'def f(g, data, st):\n'
        '    """checkmate in a docstring is prose"""\n'
        '    if g.status == "ended":\n'                                # status word, status context: found
        '        return "time_forfeit"\n'                               # distinct word anywhere: found
        '    termination = data.get("termination") or "arbiter"\n'      # shared word, termination context: found
        '    if st.phase == "forfeit":\n'                               # shared word, other context: allowed
        '        return {"forfeit": True, "arbiter": data.get("arbiter")}\n'  # keys: allowed
        '    return data["threefold"]\n',                               # subscript: allowed
        encoding="utf-8")
    hits = bare_words(sample)
    assert [h.split(": ", 1)[1] for h in hits] == ["'ended'", "'time_forfeit'", "'arbiter'"], hits
