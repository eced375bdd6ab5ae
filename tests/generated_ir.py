"""Generated Triton IR for tests and benchmarks: big modules shaped like real TTGIR."""

from __future__ import annotations

_LAYOUTS = (
    "#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
    "#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
)
_MODULE_ATTRS = (
    '{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", '
    '"ttg.threads-per-warp" = 32 : i32}'
)
_N_LOCS = 12  # distinct op locations, reused round-robin


def generate_ttgir(n_ops: int) -> str:
    """A valid TTGIR module of about ``n_ops`` ops (at least 18), as Triton prints one."""
    i32 = "tensor<1024xi32, #blocked>"
    ptrs = "tensor<1024x!tt.ptr<f32>, #blocked>"
    f32, f32_1, f16_1 = "tensor<1024xf32, #blocked>", "tensor<1024xf32, #blocked1>", "tensor<1024xf16, #blocked1>"
    lines = [
        *_LAYOUTS,
        '#loc = loc("kernel.py":1:1)',  # Triton puts the aliases block arguments use first
        f"module attributes {_MODULE_ATTRS} {{",
        '  tt.func public @kernel(%p: !tt.ptr<f32> loc("p"(#loc)), %n: i32 loc("n"(#loc))) '
        "attributes {noinline = false} {",
        "    %c1024_i32 = arith.constant 1024 : i32 loc(#loc1)",
        f"    %r = tt.make_range {{end = 1024 : i32, start = 0 : i32}} : {i32} loc(#loc2)",
        f"    %nn = tt.splat %n : i32 -> {i32} loc(#loc3)",
        f"    %pp = tt.splat %p : !tt.ptr<f32> -> {ptrs} loc(#loc4)",
    ]
    prev = "%r"
    group = 0
    n_body = 0
    while n_body + 6 < n_ops:  # 5 ops above, tt.return, the func; the module is not counted

        def loc(k: int) -> str:
            return f" loc(#loc{5 + (group * 13 + k) % _N_LOCS})"

        g = group
        chain = [
            f"    %pid{g} = tt.get_program_id x : i32",
            f"    %m{g} = arith.muli %pid{g}, %c1024_i32 : i32",
            f"    %s{g} = tt.splat %m{g} : i32 -> {i32}",
            f"    %o{g} = arith.addi %s{g}, {prev} : {i32}",
            f"    %k{g} = arith.cmpi slt, %o{g}, %nn : {i32}",
            f"    %a{g} = tt.addptr %pp, %o{g} : {ptrs}, {i32}",
            f"    %v{g} = tt.load %a{g}, %k{g} : {ptrs}",
            f"    %w{g} = arith.mulf %v{g}, %v{g} : {f32}",
            f"    %x{g} = ttg.convert_layout %w{g} : {f32} -> {f32_1}",
            f"    %h{g} = arith.truncf %x{g} : {f32_1} to {f16_1}",
            f"    %e{g} = arith.extf %h{g} : {f16_1} to {f32_1}",
            f"    %y{g} = ttg.convert_layout %e{g} : {f32_1} -> {f32}",
            f"    tt.store %a{g}, %y{g}, %k{g} : {ptrs}",
        ]
        lines += [line + loc(k) for k, line in enumerate(chain)]
        n_body += len(chain)
        prev = f"%o{g}"
        group += 1
    lines += ["    tt.return loc(#loc)", "  } loc(#loc)", "} loc(#loc)"]
    lines += ["#loc1 = loc(unknown)"]
    lines += [f'#loc{k} = loc("kernel.py":{k}:10)' for k in (2, 3, 4)]
    lines += [f'#loc{5 + k} = loc("v{k}"(#loc{2 + k % 3}))' for k in range(_N_LOCS)]
    return "\n".join(lines) + "\n"
