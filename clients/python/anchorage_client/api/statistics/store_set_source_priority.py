from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.store_set_source_priority_body import StoreSetSourcePriorityBody
from ...models.store_set_source_priority_response_200 import StoreSetSourcePriorityResponse200
from ...types import Response


def _get_kwargs(
    store: str,
    *,
    body: StoreSetSourcePriorityBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/stores/{store}/source-priority".format(
            store=quote(str(store), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | StoreSetSourcePriorityResponse200 | None:
    if response.status_code == 200:
        response_200 = StoreSetSourcePriorityResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 408:
        response_408 = Error.from_dict(response.json())

        return response_408

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | StoreSetSourcePriorityResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    body: StoreSetSourcePriorityBody,
) -> Response[Error | StoreSetSourcePriorityResponse200]:
    """Sets the order of a quantity type's sources for merged statistics (the owner only; ST-22..27)

    Args:
        store (str):
        body (StoreSetSourcePriorityBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreSetSourcePriorityResponse200]
    """

    kwargs = _get_kwargs(
        store=store,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    body: StoreSetSourcePriorityBody,
) -> Error | StoreSetSourcePriorityResponse200 | None:
    """Sets the order of a quantity type's sources for merged statistics (the owner only; ST-22..27)

    Args:
        store (str):
        body (StoreSetSourcePriorityBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreSetSourcePriorityResponse200
    """

    return sync_detailed(
        store=store,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    body: StoreSetSourcePriorityBody,
) -> Response[Error | StoreSetSourcePriorityResponse200]:
    """Sets the order of a quantity type's sources for merged statistics (the owner only; ST-22..27)

    Args:
        store (str):
        body (StoreSetSourcePriorityBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreSetSourcePriorityResponse200]
    """

    kwargs = _get_kwargs(
        store=store,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    body: StoreSetSourcePriorityBody,
) -> Error | StoreSetSourcePriorityResponse200 | None:
    """Sets the order of a quantity type's sources for merged statistics (the owner only; ST-22..27)

    Args:
        store (str):
        body (StoreSetSourcePriorityBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreSetSourcePriorityResponse200
    """

    return (
        await asyncio_detailed(
            store=store,
            client=client,
            body=body,
        )
    ).parsed
