"""The training state a framework checkpoint holds, built on a device and walked: bf16 weights, and
for Adam fp32 master weights, exp_avg and exp_avg_sq (14 bytes a parameter) split over N parameter
tensors, plus the optimizer's step counters and parameter groups, as a trainer's state_dict holds
them; and the walks a writer needs over it (every tensor, their bytes, safetensors' flat names).
Used by scripts/checkpoint-frameworks.py."""
import json

BYTES_PER_PARAM = 2 + 4 + 4 + 4  # bf16 weight, fp32 master, exp_avg, exp_avg_sq


def build_state(torch, total_bytes, n_tensors, device, seed):
    params = max(n_tensors, total_bytes // BYTES_PER_PARAM)
    gen = torch.Generator(device=device)
    gen.manual_seed(seed)
    model, opt_state = {}, {}
    for i in range(n_tensors):
        n = params // n_tensors + (1 if i < params % n_tensors else 0)
        master = torch.empty(n, dtype=torch.float32, device=device).normal_(generator=gen)
        model[f"layers.{i}.weight"] = master.to(torch.bfloat16)
        opt_state[i] = {"step": torch.tensor(float(1)),  # Adam keeps it on the CPU
                        "exp_avg": torch.empty_like(master).normal_(0, 1e-3, generator=gen),
                        "exp_avg_sq": torch.empty_like(master).uniform_(0, 1e-6, generator=gen),
                        "master_weight": master}
    groups = [{"lr": 1e-4, "betas": (0.9, 0.95), "eps": 1e-8, "weight_decay": 0.1, "params": list(range(n_tensors))}]
    return {"model": model, "optimizer": {"state": opt_state, "param_groups": groups}, "iteration": 1}


def host_copy(state):
    """The state with every tensor copied to host memory by .cpu() (a new pageable tensor each, as
    torch.save's copies are), other values as they are."""
    return tree_map(lambda t: t.cpu() if hasattr(t, "cpu") else t, state)


def tree_map(fn, obj):
    if isinstance(obj, dict):
        return {k: tree_map(fn, v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [tree_map(fn, v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(tree_map(fn, v) for v in obj)
    return fn(obj)


def tensors_of(obj, out=None):
    out = [] if out is None else out
    if isinstance(obj, dict):
        for v in obj.values():
            tensors_of(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            tensors_of(v, out)
    elif hasattr(obj, "nbytes") and hasattr(obj, "device"):
        out.append(obj)
    return out


def state_bytes(state):
    return sum(t.nbytes for t in tensors_of(state))


def flatten(obj, prefix=""):
    """Tensors by dotted name (safetensors' flat dict); other values as JSON metadata."""
    tensors, meta = {}, {}
    for k, v in obj.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            t, m = flatten(v, name + ".")
            tensors.update(t)
            meta.update(m)
        elif hasattr(v, "nbytes") and hasattr(v, "device"):
            tensors[name] = v
        else:
            meta[name] = json.dumps(v)
    return tensors, meta
