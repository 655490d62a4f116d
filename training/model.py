"""The two Web2Text CNNs (docs/design.md, The nets): a unary net (block -> boilerplate/content) and a
pairwise net (edge between adjacent blocks -> one of 4 transitions 00, 01, 10, 11).

Both are five 1-D convolutions along the block sequence, "same" zero padding, ReLU between:

    layer      kernel  filters (unary / pairwise)
    layer_1    1       50
    layer_2    1       50
    layer_3    3       50
    layer_4    3       10
    logits     3       2 / 4

Receptive field: 7 blocks (±3). Shapes inside torch are [batch, nFeatures, seq] (Conv1d layout).

Regularisation (both optional, set in the config):
- dropout: DropConnect on the weight tensors, as the reference does (tf.nn.dropout(weights)): every weight of
  every layer, logits included, is zeroed with probability `dropout` during training and the rest scaled by
  1/(1-dropout). At eval time the weights are used as they are. We keep the reference's choice because
  the nets are tiny (18k / 13k parameters) and it is what the published numbers were made with.
- l2: `l2 * sum(w^2) / 2` over the conv weights (not the biases), TF's l2_loss convention.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

KERNELS = (1, 1, 3, 3, 3)
HIDDEN = (50, 50, 50, 10)


class Web2TextCNN(nn.Module):
    def __init__(self, n_features: int, n_classes: int, dropout: float = 0.0, dilations=None):
        super().__init__()
        widths = (n_features,) + HIDDEN + (n_classes,)
        dilations = tuple(dilations or (1,) * len(KERNELS))
        if len(dilations) != len(KERNELS) or any(int(d) != d or d < 1 for d in dilations):
            raise ValueError(f"dilations must be {len(KERNELS)} positive integers, not {dilations!r}")
        self.convs = nn.ModuleList(
            nn.Conv1d(widths[i], widths[i + 1], KERNELS[i], padding=dilations[i] * (KERNELS[i] // 2),
                      dilation=dilations[i])
            for i in range(len(KERNELS))
        )
        self.dropout = dropout
        for conv in self.convs:  # reference init: truncated normal sigma 0.1, zero bias
            nn.init.trunc_normal_(conv.weight, std=0.1, a=-0.2, b=0.2)
            nn.init.zeros_(conv.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: [batch, nFeatures, seq] standardised features -> logits [batch, nClasses, seq]."""
        for i, conv in enumerate(self.convs):
            w = conv.weight
            if self.training and self.dropout > 0:
                w = F.dropout(w, p=self.dropout, training=True)  # DropConnect, inverted scaling
            x = F.conv1d(x, w, conv.bias, padding=conv.padding, dilation=conv.dilation)
            if i < len(self.convs) - 1:
                x = F.relu(x)
        return x

    def l2_penalty(self) -> torch.Tensor:
        return sum((conv.weight ** 2).sum() for conv in self.convs) / 2


def make_unary(n_features: int, dropout: float = 0.0, dilations=None) -> Web2TextCNN:
    """dilations: one per layer (config `unary_dilations`); None is the reference's (all 1, receptive field ±3)."""
    return Web2TextCNN(n_features, 2, dropout, dilations)


def make_pairwise(n_features: int, dropout: float = 0.0) -> Web2TextCNN:
    return Web2TextCNN(n_features, 4, dropout)


class MeanOfNets(nn.Module):
    """Several nets trained alike from different seeds, as one: the mean of their class probabilities, returned as
    log-probabilities (so a softmax over the output, as ExportWrapper and page_probabilities apply, gives the mean)."""

    def __init__(self, nets):
        super().__init__()
        self.nets = nn.ModuleList(nets)
        self.n_classes = nets[0].convs[-1].out_channels

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: [batch, nFeatures, seq] -> log mean probability [batch, nClasses, seq]."""
        p = torch.stack([torch.softmax(net(x), dim=1) for net in self.nets]).mean(dim=0)
        return torch.log(p.clamp_min(1e-12))


class GroupedMeanOfNets(nn.Module):
    """MeanOfNets as one net of grouped convolutions: the members' first layers side by side (they read the same
    features), every later layer a convolution with one group per member. The same function, with one operator per
    layer instead of one per layer and member (cheaper to run in onnxruntime-web)."""

    def __init__(self, nets):
        super().__init__()
        self.k = len(nets)
        self.n_classes = nets[0].convs[-1].out_channels
        self.convs = nn.ModuleList()
        for i, first in enumerate(nets[0].convs):
            conv = nn.Conv1d(first.in_channels * (1 if i == 0 else self.k), first.out_channels * self.k,
                             first.kernel_size[0], padding=first.padding[0], dilation=first.dilation[0],
                             groups=1 if i == 0 else self.k)
            with torch.no_grad():
                conv.weight.copy_(torch.cat([net.convs[i].weight for net in nets], dim=0))
                conv.bias.copy_(torch.cat([net.convs[i].bias for net in nets], dim=0))
            self.convs.append(conv)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: [batch, nFeatures, seq] -> log mean probability [batch, nClasses, seq]."""
        for i, conv in enumerate(self.convs):
            x = conv(x)
            if i < len(self.convs) - 1:
                x = F.relu(x)
        b, _, seq = x.shape
        p = torch.softmax(x.reshape(b, self.k, self.n_classes, seq), dim=2).mean(dim=1)
        return torch.log(p.clamp_min(1e-12))


class ExportWrapper(nn.Module):
    """What goes into the ONNX file: standardised features in block order, probabilities out.

    input  "features":      [1, seq, nFeatures] float32 (row-major [nBlocks, nFeatures] as the TS code holds it)
    output "probabilities": [1, seq, nClasses]  float32, softmax over the classes
    """

    def __init__(self, net: Web2TextCNN):
        super().__init__()
        self.net = net

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        logits = self.net(features.transpose(1, 2))  # [1, nClasses, seq]
        return torch.softmax(logits, dim=1).transpose(1, 2)
