"""Local rows reach the JVM without PySpark's identity pass through a Python worker (warm Spark slots
"Speed"; installed by spark_session.build_session in every Python process it builds or attaches
a session for: pytest runs, candidate executions, mutation and label runs, cold or warm).

Why: `spark.createDataFrame(rows, schema)` with a local list (the fixtures of nearly every
model-written test) sends the rows to the JVM with `SparkContext.parallelize`, whose RDD is
serialized as pickled batches (`BatchedSerializer(CPickleSerializer(), n)`). It then asks for the
RDD as Java objects (`RDD._to_java_object_rdd`), which wants `AutoBatchedSerializer` batches
and so adds `map(lambda x: x)`: a PythonRDD whose every partition, on every scan of the
fixture, is piped through a Python worker that unpickles the batch and pickles it again.
Measured here (PySpark 4.1.2, a warm session, q36's Contract-First fixtures: four tables of
2-5 rows): one solve-and-collect 0.64-0.83 s with the pass, 0.37-0.49 s without it.

What this module changes: `RDD._to_java_object_rdd` on an RDD whose JVM elements are pickled
lists (its `_jrdd_deserializer` is exactly `BatchedSerializer` over exactly `CPickleSerializer`)
unpickles them with `SerDeUtil.pythonToJava(jrdd, batched=True)` directly, as PySpark does for
an RDD already in `AutoBatchedSerializer` form. Every other RDD takes PySpark's own path.

Guarantee: the same Java objects in the same partitions in the same order. `pythonToJava`
flattens each pickled list of a partition in order, which is what the worker's identity map
followed by the same unpickling gives (the map preserves partitioning and order, and pickling
plain values again yields the same values). So the DataFrame's logical plan (a LogicalRDD with
the same schema and statistics), its partitions and each partition's rows are PySpark's; only
the Python tasks of the identity pass are gone. One difference remains by design: a value that
the Python worker could not unpickle, but the JVM's unpickler can (or the reverse), fails in the
other place with another message; `createDataFrame` with a schema verifies and converts values
to plain types first, so its rows never hold such values. Job code in the process sees the patched
method as `RDD._to_java_object_rdd` and may undo it (its own run is then slower, nothing else).
"""
from __future__ import annotations

from typing import Any

_MARK = "_lockin_direct_local_rows"


def install() -> None:
    """Patches `pyspark.core.rdd.RDD._to_java_object_rdd` as the module header says; idempotent.

    Inputs: none (acts on the imported pyspark). Returns: None. Raises: ImportError when
    PySpark is not importable.
    """
    from pyspark.core.rdd import RDD
    from pyspark.serializers import BatchedSerializer, CPickleSerializer

    if getattr(RDD._to_java_object_rdd, _MARK, False):
        return
    original = RDD._to_java_object_rdd

    def _to_java_object_rdd(self: Any) -> Any:
        fmt = self._jrdd_deserializer
        if type(fmt) is BatchedSerializer and type(fmt.serializer) is CPickleSerializer:
            return self.ctx._jvm.SerDeUtil.pythonToJava(self._jrdd, True)
        return original(self)

    setattr(_to_java_object_rdd, _MARK, True)
    _to_java_object_rdd._lockin_original = original  # type: ignore[attr-defined]  # for the tests
    _to_java_object_rdd.__doc__ = original.__doc__
    RDD._to_java_object_rdd = _to_java_object_rdd
