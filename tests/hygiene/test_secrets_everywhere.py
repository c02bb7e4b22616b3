"""No secret reaches the pool, the outbox, a model or a trace, on any write path or reader."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from helpers import insight_json, make_record
from langsmith.run_helpers import tracing_context

from langgraph_mtl import MemoryContext, MemoryRecord, open_pool
from langgraph_mtl.hygiene.redaction import redact
from langgraph_mtl.nodes.memory_nodes import create_memory_retrieval_node, create_memory_writer_node
from langgraph_mtl.nodes.outbox import Outbox
from langgraph_mtl.testing import HashingEmbeddings, ScriptedChatModel

# (text as it appears in a run, the secret inside it)
CASES = [
    ("mysql -u deploy -pTr0ub4dor3 shop < dump.sql", "Tr0ub4dor3"),
    ("mysqldump --user=root --password=S3cur3P4ss! app", "S3cur3P4ss!"),
    ('mysql -h db -u app -p"blue whale 42" app', "blue whale 42"),
    ("sshpass -p hunter2hunter ssh ci@build", "hunter2hunter"),
    ("redis-cli -h cache -a R3disS3cret ping", "R3disS3cret"),
    ("curl -u admin:Pa55w0rdX https://ci.internal/api", "Pa55w0rdX"),
    ("psql --password 'tiny pony 77' -h db", "tiny pony 77"),
    (
        'Server=db;Database=shop;User Id=sa;Password="my long secret phrase";',
        "my long secret phrase",
    ),
    ("Driver={ODBC};Server=x;Pwd={brace secret 9};", "brace secret 9"),
    (
        '{"url": "/api", "headers": {"Authorization": "Basic YWRtaW46c2VjcmV0MTIz"}}',
        "YWRtaW46c2VjcmV0MTIz",
    ),
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9abcdef123456", "eyJhbGciOiJIUzI1NiJ9abcdef123456"),
    (
        'Authorization: Digest username="ops", response="6629fae49393a05397450978507c4ef1"',
        "6629fae49393a05397450978507c4ef1",
    ),
    (
        "Proxy-Authorization: Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnagMDAu",
        "YIIGhgYGKwYBBQUCoIIGejCCBnagMDAu",
    ),
    ("X-Api-Key: 7f3c9a2b1d8e4f60", "7f3c9a2b1d8e4f60"),
    ("GET https://api.example.com/v2/items?limit=5&access_token=q8w7e6r5t4y3", "q8w7e6r5t4y3"),
    (
        "git clone https://oauth2:glpat-Abc123Def456Ghi789Jkl@gitlab.com/team/app.git",
        "glpat-Abc123Def456Ghi789Jkl",
    ),
    ("amqp://guest:RabbitP4ss@mq:5672/", "RabbitP4ss"),
    (
        "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz123456",
        "abcdefghijklmnopqrstuvwxyz123456",
    ),
    (
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ),
    ('config = {"client_secret": "c1ientS3cretValue"}', "c1ientS3cretValue"),
    ("Set-Cookie: session=9d8f7g6h5j4k3l2; HttpOnly", "9d8f7g6h5j4k3l2"),
    ('db_password: "correct horse battery staple"', "correct horse battery staple"),
]
SECRETS = [secret for _, secret in CASES]
RUN_TEXT = "\n".join(text for text, _ in CASES)


def _leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def _secrets_in_names() -> dict:
    """Record fields a caller names freely: the id, the run digest, flag names, the keys of
    the payload's objects and the merged sources, each holding secrets."""
    short = [text for text, _ in CASES if len(text) <= 64]
    return {
        "id": f"ops-{CASES[15][0]}",
        "run_digest": RUN_TEXT,
        "flags": {text: 1 for text in short},
        "payload": {"steps": [{"args": {text: "x" for text, _ in CASES}}]},
        "sources": [
            {"id": f"m-{i}", "task_id": text, "agent_model": text}
            for i, (text, _) in enumerate(CASES)
        ],
    }


@pytest.mark.parametrize(("text", "secret"), CASES)
def test_each_case_is_redacted_and_redacting_again_changes_nothing(text, secret):
    once = redact(text)
    assert secret not in once.text
    assert once.count >= 1
    again = redact(once.text)
    assert again.text == once.text
    assert again.count == 0


class Runtime:
    context = MemoryContext(domain="ops", task_id="deploy-1")


def _state() -> dict:
    return {
        "task": f"Deploy the shop. Credentials:\n{RUN_TEXT}",
        "trajectory": [{"action": text, "observation": f"ok: {text}"} for text, _ in CASES],
        "verified": True,
    }


def _echoing_model() -> ScriptedChatModel:
    """An abstracting model that copies the secrets it was shown into the memory."""
    return ScriptedChatModel(replies=[], default=insight_json(f"Use these: {RUN_TEXT}"))


def _everything_read(pool, tmp_path: Path, box: Outbox, models, traces) -> str:
    exported = io.StringIO()
    pool.export_jsonl(exported, with_embeddings=False)
    found = pool.search("deploy the shop credentials", k=10, include_quarantined=True)
    node = create_memory_retrieval_node(pool)
    prompt = node(
        {"task": "deploy the shop"}, type("R", (), {"context": MemoryContext(domain="x")})
    )
    on_disk = "".join(
        p.read_bytes().decode("utf-8", "replace") for p in tmp_path.rglob("*") if p.is_file()
    )
    sent = "".join(str(m.content) for model in models for call in model.calls for m in call)
    return "\n".join(
        [
            exported.getvalue(),
            json.dumps([h.record.model_dump(mode="json") for h in found]),
            prompt["memory_prompt"],
            box.path.read_text() if box.path.exists() else "",
            on_disk,
            sent,
            json.dumps(traces, default=str),
        ]
    )


class FakeTraceClient:
    """Stands in for the LangSmith client: keeps whatever would have been sent."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def __getattr__(self, name):
        def record(*args, **kwargs):
            self.sent.append({"call": name, "args": args, "kwargs": kwargs})

        return record


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", ["writer", "writer-pool-down", "writer-bad-model", "upsert", "import"]
)
def test_no_secret_on_any_write_path_or_reader(path, tmp_path, monkeypatch):
    monkeypatch.setenv("LANGSMITH_TRACING", "true")
    pool = open_pool(str(tmp_path / "pool"), collection="hygiene", embeddings=HashingEmbeddings())
    box = Outbox(tmp_path / "outbox.jsonl")
    model = _echoing_model()
    judge = ScriptedChatModel(replies=[], default="PASS")
    traces = FakeTraceClient()
    with tracing_context(enabled=True, client=traces):
        if path.startswith("writer"):
            state = _state()
            if path == "writer-bad-model":
                model = ScriptedChatModel(replies=[], default=f"not json {RUN_TEXT}")
            target = (
                (lambda: open_pool("http://127.0.0.1:9", collection="never"))
                if path == "writer-pool-down"
                else pool
            )
            del state["verified"]  # the judge decides, so it is sent the run too
            writer = create_memory_writer_node(
                target, model=model, memory_types=["insight", "trajectory"], judge=judge, outbox=box
            )
            written = writer(state, Runtime())
        elif path == "upsert":
            record = make_record("ops", "t1", f"deploy notes {RUN_TEXT}")
            pool.upsert(MemoryRecord.model_validate({**record.model_dump(), **_secrets_in_names()}))
        else:
            record = make_record("ops", "t1", "deploy notes").model_dump(mode="json")
            record.update(content=RUN_TEXT, agent_model="https://bot:Pa55w0rdX@llm.internal/v1")
            record.update(_secrets_in_names())
            record["flags"]["note"] = RUN_TEXT[:900]
            report = pool.import_jsonl([json.dumps({"record": record})])
            assert report.errors == []
    if path.startswith("writer"):  # the writer's abstraction is traced: its traces are read
        assert traces.sent
    seen = _everything_read(pool, tmp_path, box, [model, judge], traces.sent)
    assert _leaks(seen) == []
    if path == "writer":
        (trajectory,) = pool.list_records(memory_types="trajectory")
        assert trajectory.flags["redacted"] >= len(CASES)  # the run's secrets, counted
        # the echoed insight retells the run at length: dropped by rule, after one more ask
        assert pool.list_records(memory_types="insight") == []
        assert "insight dropped by rule" in written["memory_write_status"]
    if path in ("upsert", "import"):
        (stored,) = pool.list_records()
        assert len(stored.payload["steps"][0]["args"]) == len(CASES)  # no key folded into one
        assert stored.id.startswith("ops-git clone https://")
