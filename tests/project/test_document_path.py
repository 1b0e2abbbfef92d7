"""One document's machine path, from upload to export, enters `ingestion/services.py`
at most twice (issue 25): the upload (`upload_ingest`) and a worker's step
(`document_step_run`, for extraction and for annotation). Everything else the path
needs of ingestion happens inside that module, behind those two doors.

The path is followed in the code itself: from the upload view and the tasks a
document goes through, every function of the product that is called or handed on
(a callback) is followed, across modules, through the imports each module makes
(at the top or inside a function); each public function of ingestion.services
reached from outside it is a door. The review of a document (its spans, its
status) is a person's work, not this path: it asks ingestion for a row lock and a
status change by name, and is not counted here."""

import ast
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("anonymizer_site", "ingestion", "review")
SERVICES = "ingestion.services"
MAX_DOORS = 2

# Where one document's path starts: the upload form, the tasks it goes through,
# and the command line's in-process run of those steps when no worker answers
# (module, then a function or a method). The command's corpus, made if needed,
# is no document's path.
PATH_STARTS = (
    ("review.views.corpora", "document_upload"),
    ("review.management.commands.ingest", "Command._wait"),
    ("review.tasks", "extract_document"),
    ("review.tasks", "annotate_document"),
    ("review.tasks", "export_batch"),
)


@dataclass
class Module:
    tree: ast.Module
    functions: dict[str, ast.AST] = field(default_factory=dict)  # top-level defs and classes, Class.method
    names: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # local name → (module, attribute)


def load_modules(root: Path, packages: tuple[str, ...]) -> dict[str, Module]:
    modules: dict[str, Module] = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            module = Module(tree)
            for node in tree.body:
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    module.functions[node.name] = node
                if isinstance(node, ast.ClassDef):
                    for method in node.body:
                        if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
                            module.functions[f"{node.name}.{method.name}"] = method
            modules[name] = module
    for module in modules.values():
        # Every import, also those made inside a function (the tasks import their
        # service when they run).
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        module.names[alias.asname] = (alias.name, None)
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    target = (submodule, None) if submodule in modules else (node.module, alias.name)
                    module.names[alias.asname or alias.name] = target
    return modules


def _referenced(node: ast.AST, module: Module) -> list[tuple[str, str]]:
    """(module, name) of every product function this code calls or hands on."""
    found = []
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
            if child.id in module.names:
                target, attribute = module.names[child.id]
                if attribute is not None:
                    found.append((target, attribute))
            else:
                found.append(("", child.id))  # a function of the same module
        elif isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name):
            target, attribute = module.names.get(child.value.id, ("", ""))
            if target and attribute is None:
                found.append((target, child.attr))  # module.function
    return found


def doors_along_the_path(modules: dict[str, Module], starts=PATH_STARTS) -> dict[str, set[str]]:
    """The public functions of ingestion.services that the path reaches from
    outside that module, each with the functions that reach it."""
    services = modules[SERVICES]
    public = {
        name
        for name, node in services.functions.items()
        if not name.startswith("_") and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    doors: dict[str, set[str]] = {}
    seen: set[tuple[str, str]] = set()
    todo = list(starts)
    while todo:
        module_name, function = todo.pop()
        if (module_name, function) in seen:
            continue
        seen.add((module_name, function))
        module = modules[module_name]
        for target, name in _referenced(module.functions[function], module):
            target = target or module_name
            if target == SERVICES and module_name != SERVICES:
                if name in public:
                    doors.setdefault(name, set()).add(f"{module_name}.{function}")
            elif target != SERVICES and target in modules and name in modules[target].functions:
                todo.append((target, name))
    return doors


def test_a_document_s_path_enters_ingestion_services_at_most_twice():
    doors = doors_along_the_path(load_modules(ROOT, PRODUCT))
    # The scan sees the path at all: the upload's door and the workers' door.
    assert {"upload_ingest", "document_step_run"} <= set(doors), doors
    assert len(doors) <= MAX_DOORS, (
        f"one document's path enters ingestion/services.py through {len(doors)} public functions "
        f"(at most {MAX_DOORS}): {doors}. Keep the work behind `upload_ingest` and `document_step_run`, "
        "in private helpers of ingestion/services.py."
    )


def test_the_scan_sees_every_kind_of_door(tmp_path):
    """A new door is counted whether it is called by name, through the module,
    inside a function's own import, or handed on as a callback."""
    (tmp_path / "ingestion").mkdir()
    (tmp_path / "review").mkdir()
    (tmp_path / "ingestion" / "services.py").write_text(
        "def one(): pass\ndef two(): pass\ndef three(): pass\ndef four(): pass\ndef _own(): pass\n"
    )
    (tmp_path / "review" / "tasks.py").write_text(
        "from ingestion import services as ingestion\n"
        "from review.helper import go\n"
        "def task(pk):\n"
        "    from ingestion.services import one, _own\n"
        "    one(pk=pk)\n"
        "    _own()\n"
        "    ingestion.two(pk)\n"
        "    go(pk)\n"
    )
    (tmp_path / "review" / "helper.py").write_text(
        "from ingestion.services import three, four\ndef go(pk):\n    run(three)\ndef run(work):\n    work()\n"
    )
    modules = load_modules(tmp_path, ("ingestion", "review"))
    doors = doors_along_the_path(modules, starts=(("review.tasks", "task"),))
    assert set(doors) == {"one", "two", "three"}
