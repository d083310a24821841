"""Problem packages: the on-disk contract every problem follows.

A problem is a folder of data under ``problems/<slug>/``; adding one never means editing the judge::

    problems/<slug>/
      problem.toml            metadata (below)
      statement.md.j2         statement template, English (Jinja2; constants and samples injected)
      statement.zh.md.j2      the same statement in Chinese (optional)
      starter.py              the starter ``Solution`` class a learner fills in
      cases/sample/NN-name.json   visible cases: shown in the statement and by ``judge run``
      cases/hidden/NN-name.json   hidden cases: only ``judge submit`` sees them
      submissions/<verdict>/*.py  declared submissions; the folder names the verdict they must get
    solutions/<slug>.py       the reference solution (outside the package, never shown to learners)

The problem roots (folders of such packages) are the folders of ``$JUDGE_PROBLEMS`` and then the bundled set, an
installed judge's ``judge_bundle/problems`` (see :func:`judge.package.problem.problems_roots`).

``problem.toml``
    ``slug``, ``title``, ``difficulty`` (easy|medium|hard), ``tags`` (list of strings).
    ``[[methods]]``: ``name``, ``signature`` (as shown to learners), ``returns`` (prose).
    ``[constants]``: every threshold or number the statement quotes, by name; the template reads them from here.
    ``[[pitfalls]]``: ``id``, ``summary`` -- mistakes the hidden cases must catch. Each has at least one
    declared wrong submission whose first lines carry ``# pitfall: <id>``. An optional ``hint`` is what a
    learner is told when their output on a sample case shows this mistake: the problem's hint catalogue.
    A pitfall with a hint must be told apart from the reference by some sample case (``judge verify`` checks).
    ``[comparison]`` (optional): ``relative``, ``absolute``, ``slack`` -- the tolerance for numbers
    (:mod:`judge.package.tolerance`); the default is ``|got - expected| <= 1e-4 * max(1, |expected|) + 1e-9``.
    ``[fragility]`` (optional): what ``judge gen`` guards (``docs/authoring.md``).
    ``[[domain]]`` (optional): inputs the statement rules out, as rules every tool holds to (:mod:`.domain`).
    ``[limits]``: ``time_multiplier``, ``time_floor_s`` (CPU seconds), ``memory_mb`` (resident set, whole worker).
    ``[translations.<lang>]`` (optional): ``title``, and ``[translations.<lang>.hints]``: each hint by its pitfall's
    id, as a learner reading ``lang`` sees them (a hint left out is given in English; the statement's prose is in
    ``statement.<lang>.md.j2``).

Case files (JSON) are *specifications*, not pickles. A case names the objects it needs and the calls to make::

    {
      "title": "Healthy Kaiming MLP",
      "objects": {
        "model": {"kind": "mlp", "seed": 1, "layers": [
            {"linear": [16, 32], "weight": {"init": "kaiming_normal"}, "bias": {"init": "zeros"}},
            {"act": "relu"},
            {"linear": [32, 4]}],
          "stale_grad": {"init": "normal", "std": 1.0}},
        "x": {"kind": "tensor", "seed": 2, "shape": [64, 16], "init": "normal"},
        "y": {"kind": "tensor", "seed": 3, "shape": [64, 4], "init": "uniform", "low": -1, "high": 1}
      },
      "calls": [
        {"method": "compute_activation_stats", "args": ["$model", "$x"]},
        {"method": "diagnose", "args": [[{"mean": 0.0, "std": 1.0, "dead_fraction": 0.0}], []]}
      ],
      "build_sha256": "...",        written by ``judge gen``
      "expected": {"cpu": {...}}    written by ``judge gen``
    }

* An argument that is a string ``"$name"`` is the object ``name``, freshly built for every call, so a
  solution that mutates what it was given cannot influence another call. Any other argument is a JSON literal.
  Every call runs with torch's global generator seeded with a fixed constant (dropout is reproducible).
* Object kinds (``"kind"``): ``tensor`` (float32 of ``shape`` from an INIT, or ``"dtype": "int64"`` with exact
  values), ``labels`` (int64 class indices: ``n`` and ``num_classes``, or ``values``), ``mlp`` (an
  ``nn.Sequential`` of ``layers``), ``net`` (named ``blocks`` of layers, ``"residual": true`` for ``x + body(x)``),
  ``branched`` (a ``trunk`` and ``heads`` whose input or output may be detached, gated by ``scale`` or unused),
  ``optimizer`` and ``training`` (validated config dicts, built without ``kind``).
* Layer kinds, named by their key: ``linear`` (``[in, out]``, ``weight``/``bias`` INITs, both default to ``{"init":
  "default"}``, PyTorch's own initialisation; ``"bias": false`` for none, as for ``conv2d``), ``act`` (an
  activation: ``relu``, ``leaky_relu`` (``negative_slope``), ``sigmoid``, ``tanh``, ``gelu`` (exact erf), ``silu``,
  ``softplus`` (``beta``, ``threshold``), ``elu`` (``alpha``), ``relu6``, ``hardtanh`` (``min_val``, ``max_val``),
  ``hardsigmoid``, ``prelu`` (``num_parameters``, ``slope``: a learnable ``weight``)), ``batchnorm1d`` (with preset
  ``running_mean``/``running_var``), ``layernorm`` (both ``"affine": false`` for no weight or bias), ``dropout``,
  ``conv2d`` (``[c_in, c_out, k]``), ``maxpool2d``, ``flatten``, and ``custom`` (judge autograd layers
  ``linear``/``tanh``/``sigmoid`` with a correct or deliberately wrong backward, ``bug``).
* Model state, on any model kind: ``stale_grad`` (an INIT filling every ``.grad`` before the call, as if an
  earlier backward pass had run, with ``inject`` of ``"inf"``/``"-inf"``/``"nan"`` entries and ``none``: grads
  left ``None``), ``frozen`` (parameters with ``requires_grad=False``), ``mode`` (``train`` or ``eval``).
* INIT is ``{"init": scheme, ...}`` with scheme one of: ``default``, ``zeros``, ``constant`` (``value``),
  ``normal`` (``mean``=0, ``std``=1), ``uniform`` (``low``=-1, ``high``=1), ``kaiming_normal`` and
  ``kaiming_uniform`` (``gain``=sqrt(2), fan-in mode), ``xavier_normal`` and ``xavier_uniform`` (``gain``=1),
  ``values`` (``values``: a nested list of the exact shape). Convolutions' fans count the kernel (``c_in·k·k``).
* ``docs/kinds.md`` shows every kind with an example; :mod:`judge.package.kinds` is their one registry, and an
  unknown or misspelt key is an error naming the file and the field.
* Every object draws from its own ``torch.Generator`` seeded with its ``seed``, in float64 on the CPU, then is
  cast to float32, so a case builds bit-identical tensors on every machine; ``build_sha256`` records them (with
  buffers, gradients, ``None`` gradients, frozen flags and modes) and a checker process that never imports a
  submission checks it once per judge. Objects are moved to the judging device afterwards.
* ``permute`` (optional): the objects whose first axis is the batch, permuted together by ``judge gen``'s
  row-permutation check; ``[]`` switches that check off; absent, the generator infers them.

``translations`` (optional) gives the title in other languages for the statement's examples:
``{"zh": {"title": "..."}}``.

``mistakes`` (sample cases only, written by ``judge gen``) lists, for every hinted pitfall, what its declared
wrong submission returns on each call where that differs from the expected output:
``[{"pitfall": "<id>", "call": <index>, "output": <value>}]``, a NaN or infinity in an output written as
``{"$float": "nan"}`` (``"inf"``, ``"-inf"``) since case files are strict JSON. :mod:`judge.judging.hints` recognises a
learner's mistake by these outputs; as they come from visible inputs only, they reveal nothing hidden.

``expected`` is keyed by device (``cpu``, ``cuda``). Each entry records ``torch`` (version), ``settings``
(threads, TF32 policy, dtype of the reference) and ``outputs``: one value per call, in call order. Expected
values never reach the process that runs a submission.
"""
