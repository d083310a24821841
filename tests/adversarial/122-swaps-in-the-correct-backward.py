# verdict: wrong_answer
# attack: takes no central difference: swaps every judge-built layer's backward rule for a correct one (its own lambdas; the judge's table where it can import it), takes autograd's gradients of the swapped model as the "numeric" ones, and puts the rules back so no trace is left
# stopped by: the hidden cases with a coarse eps (hidden/26-29): there the central differences the statement asks for differ from the true gradient, so correct layers have clear nonzero relative errors that only the real computation gives
# problem: backprop-bug-finder
# base: reference
import sys

CORRECT = {"CustomLinear": lambda gx, gw, gb, grad, w: (gx, gw, gb), "CustomTanh": lambda z, a: a,
           "CustomSigmoid": lambda a: a * (1 - a)}


def _correct_rule(layer):
    table = getattr(sys.modules.get(type(layer).__module__), "LAYERS", None)
    if isinstance(table, dict):  # the judge's own table: (module, rules), the first rule correct
        for cls, rules in table.values():
            if cls is type(layer):
                return rules[0]
    return CORRECT.get(type(layer).__name__)


class _Swapped:
    """Every layer that holds a rule gets the correct one for the block; the old ones come back after it."""

    def __init__(self, model):
        self.layers = [m for m in model.modules() if hasattr(m, "_rule") and _correct_rule(m) is not None]

    def __enter__(self):
        self.saved = [m._rule for m in self.layers]
        for m in self.layers:
            m._rule = _correct_rule(m)

    def __exit__(self, *exc):
        for m, rule in zip(self.layers, self.saved):
            m._rule = rule


def _parameter_errors(model, x, y, eps):
    model, x, y = _float64(model, x, y)
    if not list(model.parameters()):
        return {}
    grads = []
    for swapped in (False, True):
        model.zero_grad(set_to_none=True)
        if swapped:
            with _Swapped(model):
                _loss(list(model.children()), x, y).backward()
        else:
            _loss(list(model.children()), x, y).backward()
        grads.append({name: p.grad.detach().clone().reshape(-1) for name, p in model.named_parameters()})
    return {name: _relative(grads[0][name], grads[1][name]) for name in grads[0]}


def _input_errors(model, x, y, eps):
    model, x, y = _float64(model, x, y)
    children = list(model.children())
    inputs = [x]
    with torch.no_grad():
        for child in children[:-1]:
            inputs.append(child(inputs[-1]))
    errors = []
    for k, h in enumerate(inputs):
        start = h.detach().clone().requires_grad_(True)
        (analytic,) = torch.autograd.grad(_loss(children[k:], start, y), start)
        with _Swapped(model):
            start = h.detach().clone().requires_grad_(True)
            (true,) = torch.autograd.grad(_loss(children[k:], start, y), start)
        errors.append(_relative(analytic.reshape(-1), true.reshape(-1)))
    return errors
