"""How a model call's error is read: one that may pass on its own is worth another try; a
refused request is the caller's, except one too long for the model's context."""

from __future__ import annotations

import httpx
import openai
import pytest
from langchain_core.exceptions import ContextOverflowError
from langchain_openai.chat_models.base import (
    OpenAIAPIError,
    OpenAIConnectionError,
    OpenAIContextOverflowError,
    OpenAIInvalidRequestError,
)
from openai.types.chat import ChatCompletion

from langgraph_mtl.model_errors import (
    cut_off,
    passing_server_error,
    refused_request,
    too_long_for_model,
)

REQUEST = httpx.Request("POST", "http://127.0.0.1:1/v1/chat/completions")
TOO_LONG = "request (8220 tokens) exceeds the available context size (8192 tokens)"


def _status(code: int, kind: type[openai.APIStatusError] = openai.APIStatusError, said: str = ""):
    response = httpx.Response(code, request=REQUEST)
    return kind(said or f"Error code: {code}", response=response, body=None)


def _http(code: int) -> httpx.HTTPStatusError:
    response = httpx.Response(code, request=REQUEST)
    return httpx.HTTPStatusError(f"{code}", request=REQUEST, response=response)


@pytest.mark.parametrize(
    ("error", "passing"),
    [
        (OpenAIConnectionError(request=REQUEST), True),
        (_status(502, OpenAIAPIError), True),
        (_status(400, OpenAIInvalidRequestError), False),
        (openai.APIConnectionError(request=REQUEST), True),
        (openai.APITimeoutError(REQUEST), True),
        (_status(500), True),
        (_status(503), True),
        (_status(429), True),
        (_status(400), False),
        (_status(401), False),
        (_status(404), False),
        (httpx.ConnectError("refused", request=REQUEST), True),
        (httpx.ReadTimeout("slow", request=REQUEST), True),
        (_http(502), True),
        (_http(422), False),
        (ConnectionResetError(), True),
        (ValueError("a bug"), False),
        (AttributeError("a bug"), False),
    ],
)
def test_only_errors_that_may_pass_on_their_own_are_worth_another_try(error, passing):
    assert passing_server_error(error) is passing


@pytest.mark.parametrize(
    ("error", "refused", "too_long"),
    [
        (_status(400, openai.BadRequestError, TOO_LONG), True, True),
        (_status(400, OpenAIInvalidRequestError, TOO_LONG), True, True),
        (_status(400, OpenAIContextOverflowError, "prompt is too long"), True, True),
        (ContextOverflowError("too many tokens"), False, True),
        (_status(400, OpenAIInvalidRequestError, "json_schema is not supported"), True, False),
        (_status(422, openai.UnprocessableEntityError), True, False),
        (_status(500, OpenAIAPIError, TOO_LONG), False, False),
        (ValueError(TOO_LONG), False, False),
    ],
)
def test_a_refused_request_and_one_too_long_for_the_model_are_told_apart(error, refused, too_long):
    assert refused_request(error) is refused
    assert too_long_for_model(error) is too_long


def test_a_structured_reply_cut_off_at_the_length_limit_is_told_from_other_errors():
    assert cut_off(openai.LengthFinishReasonError(completion=ChatCompletion.model_construct()))
    assert not cut_off(_status(400, OpenAIInvalidRequestError, TOO_LONG))
    assert not cut_off(ValueError("length"))
