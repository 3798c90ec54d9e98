/** Activities of the tasks group (exported to the worker). */
export {};
