/** Activities of the compare group (exported to the worker). */
export {};
