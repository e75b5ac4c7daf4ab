/**
 * The tools of the example tools server (`examples/tools-server.ts`), as TypeScript types. Each
 * `<Tool>Arguments` type is a tool's arguments, the `<Tool>Result` beside it its structured result;
 * JSDoc gives descriptions and the spec's constraint tags. `mcp-gen tools examples/tools.ts` turns
 * them into JSON Schemas, compiled validators and `defineTool`.
 */

/** A place on Earth. */
export interface Coordinates {
  /**
   * Degrees north of the equator.
   * @minimum -90
   * @maximum 90
   */
  latitude: number;
  /**
   * Degrees east of Greenwich.
   * @minimum -180
   * @maximum 180
   */
  longitude: number;
}

/**
 * Reports the weather at a place, today or a few days ahead.
 * @title Weather
 */
export interface GetWeatherArguments {
  /** Where. */
  at: Coordinates;
  /** The unit of the temperature; celsius when left out. */
  units?: "celsius" | "fahrenheit";
  /**
   * How many days ahead, today being 0.
   * @TJS-type integer
   * @minimum 0
   * @maximum 7
   */
  days?: number;
}

export interface GetWeatherResult {
  /** In the unit asked for. */
  temperature: number;
  conditions: "sunny" | "cloudy" | "rain" | "snow";
  /**
   * Where the forecast comes from.
   * @format uri
   */
  source: string;
}

/** Adds numbers up. */
export interface SumArguments {
  /**
   * The numbers.
   * @minItems 1
   * @maxItems 100
   */
  values: number[];
}

export interface SumResult {
  total: number;
  /** @TJS-type integer */
  count: number;
}

/**
 * Searches flights between two airports.
 * @tool search-flights
 */
export interface SearchFlightsArguments {
  /** IATA code of the departure airport. */
  from: string;
  /** IATA code of the arrival airport. */
  to: string;
  /** Departure day, YYYY-MM-DD. */
  date: string;
  /**
   * @TJS-type integer
   * @minimum 1
   * @maximum 9
   */
  passengers: number;
  cabin: "economy" | "premium" | "business" | "first";
  /**
   * Most stops accepted.
   * @TJS-type integer
   * @minimum 0
   * @maximum 3
   */
  maxStops: number;
  /**
   * Highest price, in the currency given.
   * @minimum 0
   */
  maxPrice: number;
  currency: "EUR" | "USD" | "GBP";
  flexibleDates: boolean;
  /** Airline codes to prefer. */
  airlines: string[];
}

export interface SearchFlightsResult {
  flights: Flight[];
}

export interface Flight {
  number: string;
  /** @minimum 0 */
  price: number;
  /**
   * @TJS-type integer
   * @minimum 0
   */
  stops: number;
}
