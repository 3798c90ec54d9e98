/** Activities of the store group (exported to the worker). */
export {};
