"""LBFGS: limited-memory BFGS, driven by a closure that re-evaluates the loss."""
import numpy as np

from pylayer.autograd import enable_grad, no_grad
from pylayer.extend import Tensor, check_callable, check_int, check_number, describe
from pylayer.ops.dispatch import in_dynamic_mode
from pylayer.optimizer.optimizer import Optimizer

__all__ = ["LBFGS"]


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimizer of the cubic through ``(x, f, f')`` at two points, kept in ``bounds``
    (default: between the points); their middle when the cubic has no minimum."""
    low, high = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    square = d1 ** 2 - g1 * g2
    if square < 0:
        return (low + high) / 2.0
    d2 = np.sqrt(square)
    if x1 <= x2:
        t = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        t = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(t, low), high)


def _strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """A step ``t`` along ``d`` meeting the strong Wolfe conditions (bracketing, then
    zooming with cubic interpolation). ``evaluate(t)`` gives the loss and the flat
    gradient at ``x + t * d``. Returns ``(loss, grad, t, evaluations)``."""
    d_norm = np.max(np.abs(d))
    f_new, g_new = evaluate(t)
    evals, ls_iter = 1, 0
    gtd_new = np.sum(g_new * d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    bracket = None
    while ls_iter < max_ls:
        if f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev):
            bracket = [[t_prev, f_prev, g_prev, gtd_prev], [t, f_new, g_new, gtd_new]]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, done = [[t, f_new, g_new, gtd_new]], True
            break
        if gtd_new >= 0:
            bracket = [[t_prev, f_prev, g_prev, gtd_prev], [t, f_new, g_new, gtd_new]]
            break
        # extrapolate: a cubic step between 1.01 t and 10 t beyond the last one
        step = _cubic_minimum(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                              bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new, gtd_new
        t = step
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = np.sum(g_new * d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = [[0, f, g, None], [t, f_new, g_new, None]]
    low, high = (0, 1) if bracket[0][1] <= bracket[-1][1] else (1, 0)
    insufficient = False
    while not done and ls_iter < max_ls:
        if abs(bracket[1][0] - bracket[0][0]) * d_norm < tolerance_change:
            break
        t = _cubic_minimum(bracket[0][0], bracket[0][1], bracket[0][3],
                           bracket[1][0], bracket[1][1], bracket[1][3])
        top = max(bracket[0][0], bracket[1][0])
        bottom = min(bracket[0][0], bracket[1][0])
        eps = 0.1 * (top - bottom)
        if min(top - t, t - bottom) < eps:
            # too close to an end of the bracket: after a second time (or at an end),
            # step a tenth of the bracket in from that end
            if insufficient or t >= top or t <= bottom:
                t = top - eps if abs(t - top) < abs(t - bottom) else bottom + eps
                insufficient = False
            else:
                insufficient = True
        else:
            insufficient = False
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = np.sum(g_new * d)
        ls_iter += 1
        if f_new > f + c1 * t * gtd or f_new >= bracket[low][1]:
            bracket[high] = [t, f_new, g_new, gtd_new]
            low, high = (0, 1) if bracket[0][1] <= bracket[1][1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high][0] - bracket[low][0]) >= 0:
                bracket[high] = list(bracket[low])
            bracket[low] = [t, f_new, g_new, gtd_new]
    t, f_new, g_new, _ = bracket[low]
    return f_new, g_new, t, evals


class LBFGS(Optimizer):
    """Limited-memory BFGS, as Paddle's ``LBFGS``: ``step(closure)`` runs up to
    ``max_iter`` iterations, each calling ``closure`` (which clears the gradients,
    computes the loss, calls ``backward`` and returns the loss) as it needs.

    The direction comes from the last ``history_size`` steps and gradient
    changes (the two-loop recursion). The first step's length is
    ``min(1, 1 / sum|grad|) * learning_rate``, later ones ``learning_rate``;
    with ``line_search_fn='strong_wolfe'`` a line search picks it instead.
    An iteration stops early when the largest gradient element is at most
    ``tolerance_grad``, when the step or the loss change is below
    ``tolerance_change``, or after ``max_eval`` evaluations (default
    ``max_iter * 5 // 4``). The state (iteration count, history) carries over
    between calls of ``step``. As in Paddle, ``weight_decay`` and
    ``grad_clip`` are accepted but not applied. ``step`` returns the loss of
    its first evaluation.

    >>> import pylayer
    >>> w = pylayer.create_parameter([2], 'float64', is_bias=True)
    >>> opt = pylayer.optimizer.LBFGS(parameters=[w], line_search_fn='strong_wolfe')
    >>> target = pylayer.to_tensor([1.0, -2.0], dtype='float64')
    >>> def closure():
    ...     opt.clear_grad()
    ...     loss = ((w - target) ** 2).sum()
    ...     loss.backward()
    ...     return loss
    >>> float(opt.step(closure))
    5.0
    >>> w.numpy().round(6)
    array([ 1., -2.])
    """

    def __init__(self, learning_rate=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-07,
                 tolerance_change=1e-09, history_size=100, line_search_fn=None,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        fn = "LBFGS"
        if isinstance(parameters, Tensor):
            raise TypeError(f"{fn}(): argument 'parameters' must be an iterable of Tensors or "
                            f"of parameter groups (dicts), got a Tensor")
        learning_rate = check_number(learning_rate, fn, "learning_rate")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        if self._param_groups is not None and len(self._param_groups) > 1:
            raise ValueError(f"{fn}(): argument 'parameters' may hold one parameter group at "
                             f"most (LBFGS has no per-group options), got "
                             f"{len(self._param_groups)}")
        self.learning_rate = learning_rate
        self.max_iter = check_int(max_iter, fn, "max_iter", minimum=1)
        self.max_eval = self.max_iter * 5 // 4 if max_eval is None else \
            check_int(max_eval, fn, "max_eval", minimum=1)
        self.tolerance_grad = check_number(tolerance_grad, fn, "tolerance_grad")
        self.tolerance_change = check_number(tolerance_change, fn, "tolerance_change")
        self.history_size = check_int(history_size, fn, "history_size", minimum=1)
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(f"{fn}(): argument 'line_search_fn' must be 'strong_wolfe' or "
                             f"None, got {line_search_fn!r}")
        self.line_search_fn = line_search_fn
        self.state = {}

    def _settings(self):
        return {"max_iter": self.max_iter, "max_eval": self.max_eval,
                "tolerance_grad": self.tolerance_grad,
                "tolerance_change": self.tolerance_change,
                "history_size": self.history_size, "line_search_fn": self.line_search_fn}

    # ------------------------------------------------------------ the flat vector
    def _params(self):
        return self._parameters()

    def _flat_grad(self, dtype):
        parts = [np.zeros(int(np.prod(p.shape, dtype=np.int64)), dtype) if p.grad is None
                 else p.grad.numpy().astype(dtype, copy=False).ravel() for p in self._params()]
        return np.concatenate(parts) if parts else np.zeros(0, dtype)

    def _values(self):
        return [p.numpy().copy() for p in self._params()]

    def _set_values(self, values):
        with no_grad():
            for p, value in zip(self._params(), values):
                p.set_value(value)

    def _move(self, t, d):
        """``params += t * d``, each parameter taking its piece of the flat ``d``."""
        offset = 0
        values = []
        for p in self._params():
            array = p.numpy()
            size = array.size
            values.append(array + (d[offset:offset + size] * t).reshape(array.shape)
                          .astype(array.dtype, copy=False))
            offset += size
        self._set_values(values)

    def _evaluate(self, closure):
        with enable_grad():
            loss = closure()
        if not isinstance(loss, Tensor):
            raise TypeError(f"LBFGS.step(): argument 'closure' must return the loss as a "
                            f"Tensor, got {describe(loss)}")
        return loss

    # ------------------------------------------------------------------- step
    def step(self, closure):
        """Run up to ``max_iter`` iterations; returns the loss ``closure`` first gave."""
        if not in_dynamic_mode():
            raise RuntimeError("LBFGS.step(): LBFGS runs in dynamic mode only")
        check_callable(closure, "LBFGS.step", "closure")
        params = self._params()
        dtype = np.result_type(*[p.numpy().dtype for p in params]) if params \
            else np.dtype(np.float32)
        lr, state = self.learning_rate, self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = self._evaluate(closure)
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        g = self._flat_grad(dtype)
        if g.size == 0 or np.max(np.abs(g)) <= self.tolerance_grad:
            return orig_loss

        d, t = state.get("d"), state.get("alpha")
        old_y, old_s, rho = state.get("old_yk"), state.get("old_sk"), state.get("ro")
        h_diag, prev_g = state.get("H_diag"), state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")
        one = dtype.type(1)
        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -g
                old_y, old_s, rho = [], [], []
                h_diag = one
            else:
                y = g - prev_g
                s = d * dtype.type(t)
                ys = np.sum(y * s)
                if ys > 1e-10:
                    if len(old_y) == self.history_size:
                        old_y.pop(0)
                        old_s.pop(0)
                        rho.pop(0)
                    old_y.append(y)
                    old_s.append(s)
                    rho.append(one / ys)
                    h_diag = ys / np.sum(y * y)
                # two-loop recursion: d = -H g
                q = -g
                alphas = [None] * len(old_y)
                for i in range(len(old_y) - 1, -1, -1):
                    alphas[i] = np.sum(old_s[i] * q) * rho[i]
                    q = q + old_y[i] * (-alphas[i])
                d = q * h_diag
                for i in range(len(old_y)):
                    beta = np.sum(old_y[i] * d) * rho[i]
                    d = d + old_s[i] * (alphas[i] - beta)
            prev_g = g.copy()
            prev_loss = loss
            if state["n_iter"] == 1:
                t = min(one, one / np.sum(np.abs(g))) * lr
            else:
                t = lr
            gtd = np.sum(g * d)
            if gtd > -self.tolerance_change:
                break
            ls_evals = 0
            if self.line_search_fn is not None:
                start = self._values()

                def along(step, start=start, d=d):
                    self._move(step, d)
                    value = float(self._evaluate(closure))
                    grad = self._flat_grad(dtype)
                    self._set_values(start)
                    return value, grad

                loss, g, t, ls_evals = _strong_wolfe(along, t, d, loss, g, gtd,
                                                     tolerance_change=self.tolerance_change)
                self._move(t, d)
                converged = np.max(np.abs(g)) <= self.tolerance_grad
            else:
                self._move(t, d)
                converged = False
                if n_iter != self.max_iter:
                    loss = float(self._evaluate(closure))
                    g = self._flat_grad(dtype)
                    converged = np.max(np.abs(g)) <= self.tolerance_grad
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals
            if converged or np.max(np.abs(d * t)) <= self.tolerance_change \
                    or abs(loss - prev_loss) < self.tolerance_change \
                    or evals >= self.max_eval or n_iter == self.max_iter:
                break
        state.update(d=d, alpha=t, old_yk=old_y, old_sk=old_s, ro=rho, H_diag=h_diag,
                     prev_flat_grad=prev_g, prev_loss=prev_loss)
        return orig_loss

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Not used by LBFGS, as in Paddle: call ``step(closure)``."""
        raise NotImplementedError("LBFGS.minimize(): LBFGS does not minimize a loss this way; "
                                  "call step(closure) with a closure that computes the loss "
                                  "and its gradients")

    # ------------------------------------------------------------------ state
    def state_dict(self):
        """``{'state': ...}``: the iteration and evaluation counts and the history
        (directions, steps and gradient changes as arrays), as Paddle's LBFGS gives."""
        return {"state": {key: (list(value) if isinstance(value, list) else value)
                          for key, value in self.state.items()}}

    def set_state_dict(self, state_dict):
        """Restore what :meth:`state_dict` returned."""
        if not isinstance(state_dict, dict) or not isinstance(state_dict.get("state"), dict):
            raise TypeError(f"LBFGS.set_state_dict(): argument 'state_dict' must be the dict "
                            f"that state_dict() returned ({{'state': {{...}}}}), got "
                            f"{describe(state_dict)}")
        self.state = {key: (list(value) if isinstance(value, list) else value)
                      for key, value in state_dict["state"].items()}
