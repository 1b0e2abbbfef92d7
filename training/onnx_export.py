"""The MiniLM token classifier as an ONNX graph, built from its NumPy weights.

Why build the graph by hand rather than `torch.onnx.export`: the product's models are
assembled by `make install` / `make research-model` in the product's venv, which has
no PyTorch. The graph is BertForTokenClassification's forward pass (embeddings,
`layers` encoder blocks, the classifier) written with standard ONNX operators at
opset 17; ONNX Runtime fuses its layer norms and GELUs when it loads it. The same
weights give the same logits as Hugging Face's model within float32 rounding
(tests/engine/test_minilm.py, and tests/train/ against transformers itself).

`quantize` turns the float graph into int8 weights with ONNX Runtime's dynamic
quantization (activations quantized per batch at run time): about a quarter of the
size and faster matrix products, with the agreement measured in BENCHMARKS.md.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR_VERSION = 10


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

    def layer_norm(self, x: str, weights: dict[str, np.ndarray], name: str) -> str:
        gain = self.const(name + ".weight", weights[name + ".weight"].astype(np.float32))
        bias = self.const(name + ".bias", weights[name + ".bias"].astype(np.float32))
        return self.op("LayerNormalization", [x, gain, bias], axis=-1, epsilon=1e-12)


def graph(weights: dict[str, np.ndarray], layers: int, heads: int) -> onnx.ModelProto:
    """input_ids (batch, length) int64 → logits (batch, length, tags) float32."""
    g = _Graph()
    width = weights["bert.embeddings.word_embeddings.weight"].shape[1]
    head = width // heads
    words = g.const("word_embeddings", weights["bert.embeddings.word_embeddings.weight"].astype(np.float32))
    positions = g.const("position_embeddings", weights["bert.embeddings.position_embeddings.weight"].astype(np.float32))
    # Token type 0 everywhere: one segment per window.
    segment = g.const("token_type_0", weights["bert.embeddings.token_type_embeddings.weight"][0].astype(np.float32))
    zero, one = g.const("zero", np.array([0], np.int64)), g.const("one", np.array([1], np.int64))
    length = g.op("Slice", [g.op("Shape", ["input_ids"]), one, g.const("two", np.array([2], np.int64))])
    x = g.op("Gather", [words, "input_ids"])
    x = g.op("Add", [g.op("Add", [x, g.op("Slice", [positions, zero, length])]), segment])
    x = g.layer_norm(x, weights, "bert.embeddings.LayerNorm")
    split_heads = g.const("split_heads", np.array([0, 0, 3, heads, head], np.int64))
    merge_heads = g.const("merge_heads", np.array([0, 0, width], np.int64))
    scale = g.const("scale", np.array(1.0 / np.sqrt(head), np.float32))
    root_half = g.const("root_half", np.array(1.0 / np.sqrt(2.0), np.float32))
    half, unit = g.const("half", np.array(0.5, np.float32)), g.const("unit", np.array(1.0, np.float32))
    for i in range(layers):
        p = f"bert.encoder.layer.{i}."
        qkv_weights = {
            "qkv.weight": np.concatenate(
                [weights[p + f"attention.self.{k}.weight"] for k in ("query", "key", "value")]
            ),
            "qkv.bias": np.concatenate([weights[p + f"attention.self.{k}.bias"] for k in ("query", "key", "value")]),
        }
        qkv = g.linear(x, {p + k: v for k, v in qkv_weights.items()}, p + "qkv")
        # (b, n, 3, h, d) → (3, b, h, n, d)
        qkv = g.op("Transpose", [g.op("Reshape", [qkv, split_heads])], perm=[2, 0, 3, 1, 4])
        q = g.op("Gather", [qkv, g.const(p + "q", np.array(0, np.int64))], axis=0)
        k = g.op("Gather", [qkv, g.const(p + "k", np.array(1, np.int64))], axis=0)
        v = g.op("Gather", [qkv, g.const(p + "v", np.array(2, np.int64))], axis=0)
        scores = g.op("Mul", [g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])]), scale])
        attended = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        attended = g.op("Reshape", [g.op("Transpose", [attended], perm=[0, 2, 1, 3]), merge_heads])
        x = g.layer_norm(
            g.op("Add", [g.linear(attended, weights, p + "attention.output.dense"), x]),
            weights,
            p + "attention.output.LayerNorm",
        )
        hidden = g.linear(x, weights, p + "intermediate.dense")
        # BERT's exact GELU: x * (1 + erf(x / sqrt 2)) / 2 (ONNX Runtime fuses it).
        erf = g.op("Erf", [g.op("Mul", [hidden, root_half])])
        hidden = g.op("Mul", [g.op("Mul", [hidden, g.op("Add", [erf, unit])]), half])
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
            [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"])],
            [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "length", tags])],
            g.initializers,
        ),
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="anonymizer training/onnx_export.py",
        # The IR version ONNX Runtime 1.30 reads (onnx 1.23 writes a newer one by default).
        ir_version=IR_VERSION,
    )
    onnx.checker.check_model(model)
    return model


def quantize(model: onnx.ModelProto) -> bytes:
    """int8 weights for every MatMul with a constant operand (dynamic quantization);
    the word embeddings, layer norms and softmax stay float32."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory() as work:
        source, target = Path(work) / "float.onnx", Path(work) / "int8.onnx"
        onnx.save(model, source)
        quantize_dynamic(source, target, weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"])
        return target.read_bytes()
