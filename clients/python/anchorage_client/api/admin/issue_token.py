from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.issued_token import IssuedToken
from ...models.token_for_app import TokenForApp
from ...models.token_for_owner import TokenForOwner
from ...models.token_for_peer import TokenForPeer
from ...types import Response


def _get_kwargs(
    store: str,
    *,
    body: TokenForApp | TokenForOwner | TokenForPeer,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/stores/{store}/tokens".format(
            store=quote(str(store), safe=""),
        ),
    }

    if isinstance(body, TokenForOwner):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, TokenForPeer):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | IssuedToken | None:
    if response.status_code == 201:
        response_201 = IssuedToken.from_dict(response.json())

        return response_201

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | IssuedToken]:
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
    body: TokenForApp | TokenForOwner | TokenForPeer,
) -> Response[Error | IssuedToken]:
    """Issues a token for the store; its secret is in this answer only

     Who the token acts as: the owner, a peer, or an app with its grants. Unknown fields are ignored; any
    other combination (`{"owner": true, "app": …}`, `{}`) is `400 badRequest`, a type that is not one
    `400 invalidArgument`.

    Args:
        store (str):
        body (TokenForApp | TokenForOwner | TokenForPeer):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | IssuedToken]
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
    body: TokenForApp | TokenForOwner | TokenForPeer,
) -> Error | IssuedToken | None:
    """Issues a token for the store; its secret is in this answer only

     Who the token acts as: the owner, a peer, or an app with its grants. Unknown fields are ignored; any
    other combination (`{"owner": true, "app": …}`, `{}`) is `400 badRequest`, a type that is not one
    `400 invalidArgument`.

    Args:
        store (str):
        body (TokenForApp | TokenForOwner | TokenForPeer):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | IssuedToken
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
    body: TokenForApp | TokenForOwner | TokenForPeer,
) -> Response[Error | IssuedToken]:
    """Issues a token for the store; its secret is in this answer only

     Who the token acts as: the owner, a peer, or an app with its grants. Unknown fields are ignored; any
    other combination (`{"owner": true, "app": …}`, `{}`) is `400 badRequest`, a type that is not one
    `400 invalidArgument`.

    Args:
        store (str):
        body (TokenForApp | TokenForOwner | TokenForPeer):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | IssuedToken]
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
    body: TokenForApp | TokenForOwner | TokenForPeer,
) -> Error | IssuedToken | None:
    """Issues a token for the store; its secret is in this answer only

     Who the token acts as: the owner, a peer, or an app with its grants. Unknown fields are ignored; any
    other combination (`{"owner": true, "app": …}`, `{}`) is `400 badRequest`, a type that is not one
    `400 invalidArgument`.

    Args:
        store (str):
        body (TokenForApp | TokenForOwner | TokenForPeer):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | IssuedToken
    """

    return (
        await asyncio_detailed(
            store=store,
            client=client,
            body=body,
        )
    ).parsed
