/** Activities of the execution group (exported to the worker). */
export {};
