"""Probability distributions (``paddle.distribution``): sampling, densities, statistics and
KL divergences, built from pylayer ops so that densities and reparameterised samples
differentiate, and seeded by :func:`pylayer.seed`."""
from pylayer.distribution._base import Distribution, ExponentialFamily
from pylayer.distribution.continuous import (Beta, Cauchy, Chi2, ContinuousBernoulli,
                                             Exponential, Gamma, Gumbel, Laplace, Normal,
                                             StudentT, Uniform)
from pylayer.distribution.discrete import (Bernoulli, Binomial, Categorical, Geometric,
                                           Multinomial, Poisson)
from pylayer.distribution.multivariate import Dirichlet, LKJCholesky, MultivariateNormal
from pylayer.distribution.transform import (AbsTransform, AffineTransform, ChainTransform,
                                            ExpTransform, IndependentTransform, PowerTransform,
                                            ReshapeTransform, SigmoidTransform,
                                            SoftmaxTransform, StackTransform,
                                            StickBreakingTransform, TanhTransform, Transform)
from pylayer.distribution.transformed import Independent, LogNormal, TransformedDistribution
from pylayer.distribution.kl import kl_divergence, register_kl

__all__ = ["Distribution", "ExponentialFamily", "Normal", "Uniform", "Bernoulli", "Categorical",
           "Beta", "Binomial", "Cauchy", "Chi2", "Dirichlet", "Exponential", "Gamma",
           "Geometric", "Gumbel", "Independent", "Laplace", "LogNormal", "Multinomial",
           "MultivariateNormal", "Poisson", "StudentT", "TransformedDistribution",
           "kl_divergence", "register_kl", "Transform", "AbsTransform", "AffineTransform",
           "ChainTransform", "ExpTransform", "IndependentTransform", "PowerTransform",
           "ReshapeTransform", "SigmoidTransform", "SoftmaxTransform", "StackTransform",
           "StickBreakingTransform", "TanhTransform", "ContinuousBernoulli", "LKJCholesky"]
