# verdict: wrong_answer
# attack: takes no central difference: copies the model, switches every setting its layers hold off ("none"), and uses the switched copy's autograd gradients as the "numeric" ones
# stopped by: a judge-built layer has no setting to switch: its backward is a rule chosen when it was built (judge/package/kinds/autograd_layers.py)
# problem: backprop-bug-finder
# base: reference
import copy


def _switched_off(model):
    copied = copy.deepcopy(model)
    for module in copied.modules():
        for name, value in list(vars(module).items()):
            if isinstance(value, str) or "bug" in name.lower():
                module.__dict__[name] = "none"
    return copied


def _parameter_errors(model, x, y, eps):
    model, x, y = _float64(model, x, y)
    if not list(model.parameters()):
        return {}
    grads = []
    for m in (model, _switched_off(model)):
        m.zero_grad(set_to_none=True)
        _loss(list(m.children()), x, y).backward()
        grads.append({name: p.grad.reshape(-1) for name, p in m.named_parameters()})
    return {name: _relative(grads[0][name], grads[1][name]) for name in grads[0]}


def _input_errors(model, x, y, eps):
    model, x, y = _float64(model, x, y)
    pairs = (list(model.children()), list(_switched_off(model).children()))
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
