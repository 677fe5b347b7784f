"""The tests marked ``mpi`` start processes under mpiexec: they run only when the marker
expression names them (``-m mpi``), never in the default run nor the slow tier."""


def pytest_collection_modifyitems(config, items):
    if "mpi" in (config.getoption("markexpr") or ""):
        return
    kept = [item for item in items if item.get_closest_marker("mpi") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
