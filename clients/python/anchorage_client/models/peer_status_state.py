from enum import StrEnum


class PeerStatusState(StrEnum):
    BACKINGOFF = "backingOff"
    IDLE = "idle"
    SYNCING = "syncing"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
