"""ltc.tools: the drivers — command lines and the pipeline API, the top layer.

They are the only modules that may import every layer (core, dialects, passes,
lowering); nothing imports them back. Each imports what a command needs inside the
function that needs it, so ``ltc-layout`` loads neither xDSL nor lark.

* ``opt`` — ``ltc-opt``: read Triton IR, verify, run passes, print IR, LLVM IR or PTX;
* ``pipeline`` — the Python API (``parse_module``, ``run_pipeline``, ``module_text``,
  ``compile``, ``compile_kernel``), public as ``ltc.pipeline``;
* ``layout_cli`` — ``ltc-layout``: a layout as text, JSON, a table or a picture;
* ``convert_cli`` — ``ltc-layout convert``: a conversion plan, simulated, with its costs;
* ``layout_input`` — shapes and layout attributes from the command line, for both;
* ``layout_view`` — the table and SVG renderings of a layout;
* ``sim_cli`` — ``ltc-sim``: run a PTX kernel on ``.npy`` arrays;
* ``diagnostics`` — ``file:line:col: error:`` messages with the offending line.
"""
