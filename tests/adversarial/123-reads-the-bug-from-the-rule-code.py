# verdict: wrong_answer
# attack: takes no central difference: tells each judge-built layer's rule apart by its bytecode (compared with lambdas of its own that compile to the judge's), blames the last broken layer in suspect, and measures each gradient against a copy of the model whose broken rules are replaced by the correct ones, so the original layers are never touched
# stopped by: the hidden cases with a coarse eps (hidden/26-29): knowing the bug, and so the true gradient, does not give the relative errors or verdicts of the central differences at the call's own eps
# problem: backprop-bug-finder
# base: reference
import copy

CORRECT = {"CustomLinear": lambda gx, gw, gb, grad, w: (gx, gw, gb), "CustomTanh": lambda z, a: a,
           "CustomSigmoid": lambda a: a * (1 - a)}


def _same_code(a, b):
    a, b = getattr(a, "__code__", None), getattr(b, "__code__", None)
    return a is not None and b is not None and (a.co_code, a.co_consts, a.co_names) == (b.co_code, b.co_consts,
                                                                                        b.co_names)


def _broken(model):
    """The indices of the children whose rule is not the correct one, read off the rules' code."""
    return [k for k, child in enumerate(model.children()) if type(child).__name__ in CORRECT
            and not _same_code(child._rule, CORRECT[type(child).__name__])]


def _repaired(model):
    twin = copy.deepcopy(model)
    for child in twin.children():
        if type(child).__name__ in CORRECT:
            child.__dict__["_rule"] = CORRECT[type(child).__name__]
    return twin


def _parameter_errors(model, x, y, eps):
    model, x, y = _float64(model, x, y)
    if not list(model.parameters()):
        return {}
    grads = []
    for m in (model, _repaired(model)):
        m.zero_grad(set_to_none=True)
        _loss(list(m.children()), x, y).backward()
        grads.append({name: p.grad.reshape(-1) for name, p in m.named_parameters()})
    return {name: _relative(grads[0][name], grads[1][name]) for name in grads[0]}


def _input_errors(model, x, y, eps):
    model, x, y = _float64(model, x, y)
    pairs = (list(model.children()), list(_repaired(model).children()))
    inputs = [x]
    with torch.no_grad():
        for child in pairs[0][:-1]:
            inputs.append(child(inputs[-1]))
    errors = []
    for k, h in enumerate(inputs):
        grads = []
        for children in pairs:
            start = h.detach().clone().requires_grad_(True)
            grads.append(torch.autograd.grad(_loss(children[k:], start, y), start)[0].reshape(-1))
        errors.append(_relative(*grads))
    return errors


class Solution(Solution):
    def suspect(self, model, x, y, eps, tol):
        return max(_broken(model), default=-1)
