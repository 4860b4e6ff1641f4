from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.statistics import Statistics
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    type_: str,
    options: str | Unset = "sum",
    interval: str | Unset = "1d",
    from_: str,
    to: str,
    anchor: str | Unset = UNSET,
    tz: str | Unset = "UTC",
    unit: str | Unset = UNSET,
    separate_by_source: bool | Unset = UNSET,
    sources: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["type"] = type_

    params["options"] = options

    params["interval"] = interval

    params["from"] = from_

    params["to"] = to

    params["anchor"] = anchor

    params["tz"] = tz

    params["unit"] = unit

    params["separateBySource"] = separate_by_source

    params["sources"] = sources

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/statistics",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Statistics | None:
    if response.status_code == 200:
        response_200 = Statistics.from_dict(response.json())

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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Statistics]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    type_: str,
    options: str | Unset = "sum",
    interval: str | Unset = "1d",
    from_: str,
    to: str,
    anchor: str | Unset = UNSET,
    tz: str | Unset = "UTC",
    unit: str | Unset = UNSET,
    separate_by_source: bool | Unset = UNSET,
    sources: str | Unset = UNSET,
) -> Response[Error | Statistics]:
    """A statistics collection query

    Args:
        type_ (str):
        options (str | Unset):  Default: 'sum'.
        interval (str | Unset):  Default: '1d'.
        from_ (str):
        to (str):
        anchor (str | Unset):
        tz (str | Unset):  Default: 'UTC'.
        unit (str | Unset):
        separate_by_source (bool | Unset):
        sources (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Statistics]
    """

    kwargs = _get_kwargs(
        type_=type_,
        options=options,
        interval=interval,
        from_=from_,
        to=to,
        anchor=anchor,
        tz=tz,
        unit=unit,
        separate_by_source=separate_by_source,
        sources=sources,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    type_: str,
    options: str | Unset = "sum",
    interval: str | Unset = "1d",
    from_: str,
    to: str,
    anchor: str | Unset = UNSET,
    tz: str | Unset = "UTC",
    unit: str | Unset = UNSET,
    separate_by_source: bool | Unset = UNSET,
    sources: str | Unset = UNSET,
) -> Error | Statistics | None:
    """A statistics collection query

    Args:
        type_ (str):
        options (str | Unset):  Default: 'sum'.
        interval (str | Unset):  Default: '1d'.
        from_ (str):
        to (str):
        anchor (str | Unset):
        tz (str | Unset):  Default: 'UTC'.
        unit (str | Unset):
        separate_by_source (bool | Unset):
        sources (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Statistics
    """

    return sync_detailed(
        client=client,
        type_=type_,
        options=options,
        interval=interval,
        from_=from_,
        to=to,
        anchor=anchor,
        tz=tz,
        unit=unit,
        separate_by_source=separate_by_source,
        sources=sources,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    type_: str,
    options: str | Unset = "sum",
    interval: str | Unset = "1d",
    from_: str,
    to: str,
    anchor: str | Unset = UNSET,
    tz: str | Unset = "UTC",
    unit: str | Unset = UNSET,
    separate_by_source: bool | Unset = UNSET,
    sources: str | Unset = UNSET,
) -> Response[Error | Statistics]:
    """A statistics collection query

    Args:
        type_ (str):
        options (str | Unset):  Default: 'sum'.
        interval (str | Unset):  Default: '1d'.
        from_ (str):
        to (str):
        anchor (str | Unset):
        tz (str | Unset):  Default: 'UTC'.
        unit (str | Unset):
        separate_by_source (bool | Unset):
        sources (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Statistics]
    """

    kwargs = _get_kwargs(
        type_=type_,
        options=options,
        interval=interval,
        from_=from_,
        to=to,
        anchor=anchor,
        tz=tz,
        unit=unit,
        separate_by_source=separate_by_source,
        sources=sources,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    type_: str,
    options: str | Unset = "sum",
    interval: str | Unset = "1d",
    from_: str,
    to: str,
    anchor: str | Unset = UNSET,
    tz: str | Unset = "UTC",
    unit: str | Unset = UNSET,
    separate_by_source: bool | Unset = UNSET,
    sources: str | Unset = UNSET,
) -> Error | Statistics | None:
    """A statistics collection query

    Args:
        type_ (str):
        options (str | Unset):  Default: 'sum'.
        interval (str | Unset):  Default: '1d'.
        from_ (str):
        to (str):
        anchor (str | Unset):
        tz (str | Unset):  Default: 'UTC'.
        unit (str | Unset):
        separate_by_source (bool | Unset):
        sources (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Statistics
    """

    return (
        await asyncio_detailed(
            client=client,
            type_=type_,
            options=options,
            interval=interval,
            from_=from_,
            to=to,
            anchor=anchor,
            tz=tz,
            unit=unit,
            separate_by_source=separate_by_source,
            sources=sources,
        )
    ).parsed
