"""@tilelang.autotune under tile-doctor: the CPU executor cannot time configurations, so the tuner does
not benchmark. With every tunable given it compiles that configuration (as TileLang does); otherwise it
takes the first configuration, or with --autotune all compiles and checks every one (each with TileLang's
supplied inputs, against ref_prog when the script gave one) and then takes the first. The report says
which configuration was taken."""

from __future__ import annotations

import inspect


def _config_args(tuner, parameters, reserved: frozenset, pass_key: str) -> list[dict]:
    """Each configuration as the compile function's keyword arguments (TileLang's own rule)."""
    out = []
    for config in tuner.configs:
        kwargs = {name: config[name] for name in parameters if name in config}
        unused = set(config) - set(kwargs) - reserved
        if unused:
            raise ValueError(f"Unused keys in config: {unused}")
        kwargs[pass_key] = config.get("pass_configs", None)
        out.append(kwargs)
    if not out:
        raise ValueError("No configurations to tune, please check your `@autotune` decorator")
    return out


def _tunables_given(tuner, top: dict, pass_key: str) -> bool:
    if tuner._kernel_parameters is None:
        return False
    args, kwargs = tuner._kernel_parameters
    names = list(tuner._function_parameters.keys())
    tunables = [k for k in top if k != pass_key]
    return any(k in top for k, _ in kwargs) or any(names.index(k) < len(args) for k in tunables if k in names)


def _check_configuration(tuner, kernel) -> None:
    """A launch of the configuration with TileLang's supplied inputs (checked like every launch)."""
    profile = tuner.profile_args
    profiler = kernel.get_profiler(tensor_supply_type=profile.supply_type)
    if profile.ref_prog is not None and not profile.skip_check:
        profiler.assert_allclose(profile.ref_prog, rtol=profile.rtol, atol=profile.atol,
                                 max_mismatched_ratio=profile.max_mismatched_ratio)
    else:
        profiler.run_once()


def install(capture, mode: str) -> None:
    from tilelang.autotuner import tuner as tuner_module
    from tilelang.autotuner.param import AutotuneResult

    reserved, pass_key = tuner_module._RESERVED_CONFIG_KEYS, tuner_module._PASS_CONFIGS_KEY

    def run(self, *args, **kwargs):
        where = capture.where()
        parameters = inspect.signature(self.fn).parameters
        if callable(self.configs):
            kernel_args, kernel_kwargs = self._kernel_parameters
            self.configs = self.configs(*kernel_args, **dict(kernel_kwargs))
        compile_func, _ = self._ensure_jit_functions()
        configs = _config_args(self, parameters, reserved, pass_key)
        public = [{k: v for k, v in c.items() if k != pass_key} for c in configs]
        if _tunables_given(self, configs[0], pass_key):
            kernel = compile_func()
            return AutotuneResult(libcode=kernel.get_kernel_source(), func=kernel.prim_func, kernel=kernel)
        chosen = range(len(configs)) if mode == "all" else range(1)
        kernels = []
        for i in chosen:
            kernel = compile_func(**configs[i])
            if mode == "all":
                _check_configuration(self, kernel)
            kernels.append(kernel)
        best = kernels[0]
        best.latency, best.config, best.ref_latency = float("nan"), public[0], None
        checked = f"all {len(configs)} were compiled and checked" if mode == "all" else \
            "--autotune all checks every one"
        capture.notes.add(where, f"@tilelang.autotune took the first of {len(configs)} configurations, {public[0]}, "
                                 f"without timing ({checked})")
        return AutotuneResult(latency=float("nan"), config=public[0], libcode=best.get_kernel_source(),
                              func=best.prim_func, kernel=best)

    tuner_module.AutoTuner.run = run
