import numpy as np

def lstm_forward(xg: np.ndarray, weight_hh: np.ndarray, h0: np.ndarray, c0: np.ndarray,
                 running: np.ndarray | None, reverse: bool, zero_padding: bool,
                 batch_major: bool, out: np.ndarray, h_n: np.ndarray, c_n: np.ndarray,
                 h_prev: np.ndarray, c_prev: np.ndarray, acts: np.ndarray, tanh_c: np.ndarray) -> None: ...
def lstm_backward(g_out: np.ndarray | None, g_h: np.ndarray | None, g_c: np.ndarray | None,
                  weight_hh: np.ndarray, acts: np.ndarray, c_prev: np.ndarray,
                  tanh_c: np.ndarray, running: np.ndarray | None, reverse: bool,
                  zero_padding: bool, batch_major: bool, dgates: np.ndarray, dh: np.ndarray,
                  dc: np.ndarray) -> None: ...
