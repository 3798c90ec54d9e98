/** Activities of the preflight group (exported to the worker). */
export {};
