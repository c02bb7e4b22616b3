"""A run's tasks, written down. Which tasks a domain's splits hold depends on which references
verify on the machine (a command whose output changes between runs, a tool that is missing), so
the same seed can give another split elsewhere. The first invocation of a run records each
domain's source and eval task ids, in order, in ``tasks.json``; every later invocation, here or
on another machine, takes its tasks from there, and a larger ``--limit`` only appends."""

from __future__ import annotations

import json
from pathlib import Path

from langgraph_mtl_experiments.tasks import Domain, Task, Verdict

__all__ = ["ListedDomain", "PinnedDomain", "TaskLists", "read_task_lists", "write_task_lists"]

TaskLists = dict[str, dict[str, list[str]]]  # domain -> split -> task ids in order


class PinnedDomain(Domain):
    """``inner`` whose ``tasks(split, limit)`` starts with the recorded ids of that split; its
    name, kind (the agent's limits follow it) and data are the inner domain's."""

    def __init__(self, inner: Domain, lists: dict[str, list[str]]) -> None:
        self.inner = inner
        self.name, self.kind, self.data = inner.name, inner.kind, inner.data
        self.lists = lists

    def candidates(self) -> list[Task]:
        return self.inner.candidates()

    def fetch(self, verify: str = "none") -> int:
        return self.inner.fetch(verify)

    def usable(self, task: Task) -> bool:
        return self.inner.usable(task)

    def all_tasks(self) -> list[Task]:
        return self.inner.all_tasks()

    def check(self, task: Task, files: dict[str, str]) -> Verdict:
        return self.inner.check(task, files)

    def tasks(self, split: str = "all", *, limit: int | None = None, seed: int = 0) -> list[Task]:
        """The recorded ids of ``split`` first; past them (a larger limit) the inner domain's
        next tasks that no split has recorded, which are recorded too."""
        if split not in ("source", "eval") or seed != 0:
            return self.inner.tasks(split, limit=limit, seed=seed)
        pinned = self.lists.setdefault(split, [])
        found = {t.task_id: t for t in self._extend(split, pinned, limit)}
        wanted = pinned if limit is None else pinned[:limit]
        if any(i not in found for i in wanted):  # recorded where other tasks verified
            found.update((t.task_id, t) for t in self.inner.candidates())
        missing = [i for i in wanted if i not in found]
        if missing:
            raise ValueError(
                f"{self.name}: tasks.json names tasks its data set does not have "
                f"({', '.join(missing[:3])}); fetch the same data set or start a new run"
            )
        return [found[i] for i in wanted]

    def _extend(self, split: str, pinned: list[str], limit: int | None) -> list[Task]:
        """Append to ``pinned`` the inner split's next tasks recorded nowhere yet, up to
        ``limit``; returns the inner tasks it looked at."""
        taken = {i for ids in self.lists.values() for i in ids}
        asked = len(pinned) if limit is None else limit
        while True:
            fresh = self.inner.tasks(split, limit=None if limit is None else asked)
            new = [t.task_id for t in fresh if t.task_id not in taken]
            short = 0 if limit is None else limit - len(pinned) - len(new)
            if short <= 0 or len(fresh) < asked:
                pinned += new if limit is None else new[: max(0, limit - len(pinned))]
                return fresh
            asked += short


class ListedDomain(PinnedDomain):
    """``inner`` whose ``split`` is exactly ``ids``, in that order, whatever the limit (a
    pre-registered task list, or one block of it); its other splits are ``inner``'s."""

    def __init__(self, inner: Domain, split: str, ids: list[str]) -> None:
        super().__init__(inner, {})
        self.split, self.ids = split, list(ids)

    def tasks(self, split: str = "all", *, limit: int | None = None, seed: int = 0) -> list[Task]:
        """Exactly the listed tasks for the listed split; the inner domain's otherwise.

        Raises:
            ValueError: a listed task is not in the domain's data set.
        """
        if split != self.split:
            return self.inner.tasks(split, limit=limit, seed=seed)
        found = {t.task_id: t for t in self.inner.candidates()}
        missing = [i for i in self.ids if i not in found]
        if missing:
            raise ValueError(
                f"{self.name}: the task list names tasks its data set does not have "
                f"({', '.join(missing[:3])}); fetch the same data set or correct the list"
            )
        return [found[i] for i in self.ids]


def read_task_lists(path: Path) -> TaskLists:
    """The task lists recorded in ``path``; empty when there is none yet.

    Raises:
        ValueError: the file is not a task-lists file.
    """
    if not path.exists():
        return {}
    try:
        lists = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    shape_ok = isinstance(lists, dict) and all(
        isinstance(splits, dict)
        and all(
            isinstance(ids, list) and all(isinstance(i, str) for i in ids)
            for ids in splits.values()
        )
        for splits in lists.values()
    )
    if not shape_ok:
        raise ValueError(f"{path}: expected {{domain: {{split: [task ids]}}}}")
    return lists


def write_task_lists(path: Path, lists: TaskLists) -> None:
    """Write ``lists`` to ``path`` (sorted keys, so equal lists give equal files)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(lists, indent=1, sort_keys=True) + "\n", encoding="utf-8")
