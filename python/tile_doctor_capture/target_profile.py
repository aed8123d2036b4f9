"""The target profile the capture answers device queries from without a GPU (the --profile option, or
`tile-doctor targets --format json` for tile_doctor.checking), completed with the compute capability of the
CUDA architecture TileLang lowers for. Imports nothing heavy: it is read before torch or TileLang load."""


def with_capability(profile: dict, arch: str) -> dict:
    """`profile` with "capability" [major, minor] from an "sm_XY" arch where it has none (sm_80 otherwise)."""
    profile.setdefault("capability", [int(arch[3:-1] or 8), int(arch[-1])] if arch[3:].isdigit() else [8, 0])
    return profile
