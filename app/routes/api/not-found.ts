import { ApiError, errorResponse, MESSAGES } from "~/.server/api";

// Any other address under /api: the API's JSON 404, never the HTML page.
const answer = () => errorResponse(new ApiError(404, MESSAGES.routeNotFound));
export const loader = answer;
export const action = answer;
