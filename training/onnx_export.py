"""The MiniLM token classifier as an ONNX graph, built from its NumPy weights.

Why build the graph by hand rather than `torch.onnx.export`: the product's models are
assembled by `make install` / `make research-model` in the product's venv, which has
no PyTorch. The graph is BertForTokenClassification's forward pass (embeddings,
`layers` encoder blocks, the classifier) at opset 17: standard ONNX operators, but
for each block's self-attention and GELU, which are ONNX Runtime's own fused
`Attention` and `Gelu` (its "com.microsoft" operators, which the product's runtime
always has). Written with standard operators, the attention was eleven nodes and
its GELU five that ONNX Runtime did not fuse once the matrix products were
quantized: the fused ones take 16 % less CPU time per window with identical int8
logits (BENCHMARKS.md, "The licence-clean default"). The same weights give the same
logits as Hugging Face's model within float32 rounding (tests/engine/test_minilm.py,
and tests/train/ against transformers itself).

`quantize` turns the float graph into int8 weights with ONNX Runtime's dynamic
quantization (activations quantized per batch at run time): about a quarter of the
size and faster matrix products, with the agreement measured in BENCHMARKS.md.
"""

from __future__ import annotations

import platform
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR_VERSION = 10
# ONNX Runtime's contrib operators' domain and its version.
MICROSOFT = "com.microsoft"
MICROSOFT_OPSET = 1


class _Graph:
    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self.count = 0

    def const(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(value, name))
        return name

    def op(self, kind: str, inputs: list[str], **attributes: object) -> str:
        self.count += 1
        out = f"{kind.lower()}_{self.count}"
        self.nodes.append(helper.make_node(kind, inputs, [out], **attributes))
        return out

    def linear(self, x: str, weights: dict[str, np.ndarray], name: str) -> str:
        # Hugging Face keeps (out, in); a MatMul wants (in, out).
        w = self.const(name + ".weight", np.ascontiguousarray(weights[name + ".weight"].T, dtype=np.float32))
        b = self.const(name + ".bias", weights[name + ".bias"].astype(np.float32))
        return self.op("Add", [self.op("MatMul", [x, w]), b])

    def fused(self, kind: str, inputs: list[str], **attributes: object) -> str:
        """One of ONNX Runtime's own operators (`com.microsoft`)."""
        self.count += 1
        out = f"{kind.lower()}_{self.count}"
        self.nodes.append(helper.make_node(kind, inputs, [out], domain=MICROSOFT, **attributes))
        return out

    def layer_norm(self, x: str, weights: dict[str, np.ndarray], name: str) -> str:
        gain = self.const(name + ".weight", weights[name + ".weight"].astype(np.float32))
        bias = self.const(name + ".bias", weights[name + ".bias"].astype(np.float32))
        return self.op("LayerNormalization", [x, gain, bias], axis=-1, epsilon=1e-12)


def graph(weights: dict[str, np.ndarray], layers: int, heads: int, case_types: bool = False) -> onnx.ModelProto:
    """input_ids (batch, length) int64 → logits (batch, length, tags) float32. With
    `case_types` (a cased model), a second input, token_type_ids (batch, length)
    int64, gives each piece its word's case (pipelines/detection/case.py)."""
    g = _Graph()
    words = g.const("word_embeddings", weights["bert.embeddings.word_embeddings.weight"].astype(np.float32))
    positions = g.const("position_embeddings", weights["bert.embeddings.position_embeddings.weight"].astype(np.float32))
    types = weights["bert.embeddings.token_type_embeddings.weight"].astype(np.float32)
    # Without case types, token type 0 everywhere: one segment per window.
    segment = (
        g.op("Gather", [g.const("token_type_embeddings", types), "token_type_ids"])
        if case_types
        else g.const("token_type_0", types[0])
    )
    zero, one = g.const("zero", np.array([0], np.int64)), g.const("one", np.array([1], np.int64))
    length = g.op("Slice", [g.op("Shape", ["input_ids"]), one, g.const("two", np.array([2], np.int64))])
    x = g.op("Gather", [words, "input_ids"])
    x = g.op("Add", [g.op("Add", [x, g.op("Slice", [positions, zero, length])]), segment])
    x = g.layer_norm(x, weights, "bert.embeddings.LayerNorm")
    for i in range(layers):
        p = f"bert.encoder.layer.{i}."
        # Query, key and value in one (in, 3 * out) product, as `Attention` takes them.
        qkv_weight = np.concatenate([weights[p + f"attention.self.{k}.weight"] for k in ("query", "key", "value")])
        qkv_bias = np.concatenate([weights[p + f"attention.self.{k}.bias"] for k in ("query", "key", "value")])
        w = g.const(p + "qkv.weight", np.ascontiguousarray(qkv_weight.T, dtype=np.float32))
        b = g.const(p + "qkv.bias", qkv_bias.astype(np.float32))
        # No mask: every window of a batch has the same length (minilm.token_tags).
        attended = g.fused("Attention", [x, w, b], num_heads=heads)
        x = g.layer_norm(
            g.op("Add", [g.linear(attended, weights, p + "attention.output.dense"), x]),
            weights,
            p + "attention.output.LayerNorm",
        )
        # BERT's exact GELU, x * (1 + erf(x / sqrt 2)) / 2.
        hidden = g.fused("Gelu", [g.linear(x, weights, p + "intermediate.dense")])
        x = g.layer_norm(
            g.op("Add", [g.linear(hidden, weights, p + "output.dense"), x]), weights, p + "output.LayerNorm"
        )
    logits = g.linear(x, weights, "classifier")
    g.nodes.append(helper.make_node("Identity", [logits], ["logits"]))
    tags = weights["classifier.bias"].shape[0]
    model = helper.make_model(
        helper.make_graph(
            g.nodes,
            "minilm_token_classifier",
            [
                helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "length"])
                for name in ("input_ids", *(["token_type_ids"] if case_types else []))
            ],
            [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "length", tags])],
            g.initializers,
        ),
        opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid(MICROSOFT, MICROSOFT_OPSET)],
        producer_name="anonymizer training/onnx_export.py",
        # The IR version ONNX Runtime 1.30 reads (onnx 1.23 writes a newer one by default).
        ir_version=IR_VERSION,
    )
    onnx.checker.check_model(model)
    return model


def saturates_u8s8(cpuinfo: str | None = None, machine: str | None = None) -> bool:
    """Whether this CPU's int8 matrix products may saturate: an x86 CPU without VNNI,
    where ONNX Runtime's u8s8 kernels add pairs of 8-bit products in 16 bits
    (ONNX Runtime's quantization guide: "reduce_range=True" there). Where the flags
    cannot be read (an x86 CPU on another system) it is assumed so; ARM's kernels
    and VNNI's accumulate in 32 bits."""
    if (machine or platform.machine()).lower() not in ("x86_64", "amd64", "i386", "i686", "x86"):
        return False
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return True
    flags = {flag for line in cpuinfo.splitlines() if line.startswith("flags") for flag in line.split()}
    return not flags & {"avx512_vnni", "avx_vnni"}


def quantize(model: onnx.ModelProto, reduce_range: bool | None = None) -> bytes:
    """int8 weights for every MatMul with a constant operand and every attention's
    query, key and value (dynamic quantization); the word embeddings, layer norms and
    the attention's softmax stay float32. One scale per output channel, not one per
    matrix: at the same speed, within 0.5 points of the float graph's F1 on every
    label of CoNLL-2003 val, where one scale a matrix lost 1.7 on places and
    organizations (BENCHMARKS.md, seventeenth session). `reduce_range`: 7-bit
    weights, so that no pair of products overflows 16 bits; by default only on a CPU
    whose products may saturate (`saturates_u8s8`): on CoNLL-2003 val it cost 0.2 to
    0.3 points of F1 against full-range weights (eighteenth session), which the
    graph is spared where the CPU has VNNI. `make install` builds the graph on the
    machine that runs it, so each CPU gets its own."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory() as work:
        source, target = Path(work) / "float.onnx", Path(work) / "int8.onnx"
        onnx.save(model, source)
        quantize_dynamic(
            source,
            target,
            weight_type=QuantType.QInt8,
            # `Attention` becomes `QAttention`: its query, key and value product in int8.
            op_types_to_quantize=["MatMul", "Attention"],
            per_channel=True,
            reduce_range=saturates_u8s8() if reduce_range is None else reduce_range,
            # Shape inference cannot type the contrib operators' outputs: they are float.
            extra_options={"DefaultTensorType": TensorProto.FLOAT},
        )
        return target.read_bytes()
