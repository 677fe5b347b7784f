# Run with the scratch Paddle 3.3.1: makes tests/nn/data/rnn_{lstm,gru}.{pdparams,npz}
import numpy as np, paddle
paddle.seed(7)
rng = np.random.default_rng(7)
x = rng.standard_normal((2, 5, 3)).astype("float32")
lengths = np.array([5, 3], dtype="int64")
for name, cls in (("lstm", paddle.nn.LSTM), ("gru", paddle.nn.GRU)):
    model = cls(3, 4, num_layers=2, direction="bidirect")
    paddle.save(model.state_dict(), f"rnn_{name}.pdparams")
    xt = paddle.to_tensor(x, stop_gradient=False)
    out, states = model(xt)
    states = states if isinstance(states, tuple) else (states,)
    (out.sum() + sum(s.sum() for s in states)).backward()
    out_len, states_len = model(paddle.to_tensor(x), sequence_length=paddle.to_tensor(lengths))
    states_len = states_len if isinstance(states_len, tuple) else (states_len,)
    np.savez(f"rnn_{name}.npz", x=x, lengths=lengths, out=out.numpy(),
             states=np.stack([s.numpy() for s in states]), x_grad=xt.grad.numpy(),
             out_len=out_len.numpy(), states_len=np.stack([s.numpy() for s in states_len]))
