from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.access_log_page import AccessLogPage
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["from"] = from_

    params["to"] = to

    params["limit"] = limit

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/access-log",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AccessLogPage | Error | None:
    if response.status_code == 200:
        response_200 = AccessLogPage.from_dict(response.json())

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

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[AccessLogPage | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[AccessLogPage | Error]:
    """Who read what of the store (its owner only)

    Args:
        from_ (str | Unset):
        to (str | Unset):
        limit (int | Unset):  Default: 100.
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccessLogPage | Error]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        limit=limit,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> AccessLogPage | Error | None:
    """Who read what of the store (its owner only)

    Args:
        from_ (str | Unset):
        to (str | Unset):
        limit (int | Unset):  Default: 100.
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccessLogPage | Error
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        limit=limit,
        after=after,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> Response[AccessLogPage | Error]:
    """Who read what of the store (its owner only)

    Args:
        from_ (str | Unset):
        to (str | Unset):
        limit (int | Unset):  Default: 100.
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AccessLogPage | Error]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        limit=limit,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    limit: int | Unset = 100,
    after: str | Unset = UNSET,
) -> AccessLogPage | Error | None:
    """Who read what of the store (its owner only)

    Args:
        from_ (str | Unset):
        to (str | Unset):
        limit (int | Unset):  Default: 100.
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AccessLogPage | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            limit=limit,
            after=after,
        )
    ).parsed
